//! The listing helpers on the bundled snapshot: token list order, pages and typed errors, the
//! liquidity sources and the price body.

use crate::zap_spec::{addr, bundled, lp_of, sym, CURVE_3POOL};
use swapzap::service::listing::{
    is_valid_source_id, liquidity_sources, price_body, token_list, OrderBy, OrderDir, TokenQuery,
    DEFAULT_LIMIT,
};
use swapzap::service::pricing::NotRoutable;
use swapzap::{Error, RequestError};

#[test]
fn token_list_defaults_and_order() {
    let g = bundled();
    let usdc = sym(&g, "USDC");
    let q = TokenQuery::parse(None, None, None, None).unwrap();
    assert_eq!(
        (q.order_by, q.order_dir, q.limit, q.offset),
        (OrderBy::Tvl, OrderDir::Desc, DEFAULT_LIMIT, 0)
    );
    let all = token_list(&g, usdc, &q).unwrap();
    assert_eq!(all.len(), g.n_tokens());
    assert!(all.windows(2).all(|w| w[0].tvl >= w[1].tvl));
    // the deepest tokens of the bundled market lead (USDC is in the most pools); the
    // long-tail tokens trail
    let top: Vec<&str> = all[..3].iter().map(|e| e.symbol.as_str()).collect();
    assert!(top.contains(&"USDC"), "{top:?}");
    let rank = |s: &str| all.iter().position(|e| e.symbol == s).unwrap();
    assert!(rank("WETH") < rank("TOSHI") && rank("USDC") < rank("DEGEN"));
    // USDC's TVL is its balances in whole USDC, independently summed
    let want: f64 = g
        .pools_of(usdc)
        .iter()
        .map(|&p| {
            let i = g.coin_index(p, usdc).unwrap();
            g.pool(p).unwrap().pool.balances()[i]
                .to_string()
                .parse::<f64>()
                .unwrap()
                / 1e6
        })
        .sum();
    let got = all.iter().find(|e| e.symbol == "USDC").unwrap().tvl;
    assert!((got - want).abs() <= 1e-9 * want, "{got} {want}");
    assert!(all.iter().any(|e| e.is_lp));

    let by_sym = TokenQuery::parse(Some("symbol"), None, Some("5"), Some("2")).unwrap();
    assert_eq!(by_sym.order_dir, OrderDir::Asc);
    let page = token_list(&g, usdc, &by_sym).unwrap();
    let full = token_list(
        &g,
        usdc,
        &TokenQuery::parse(Some("symbol"), Some("asc"), Some("1000"), None).unwrap(),
    )
    .unwrap();
    assert!(full
        .windows(2)
        .all(|w| (&w[0].symbol, &w[0].address) <= (&w[1].symbol, &w[1].address)));
    assert_eq!(page, full[2..7].to_vec());
    let desc = token_list(
        &g,
        usdc,
        &TokenQuery::parse(Some("symbol"), Some("desc"), Some("1000"), None).unwrap(),
    )
    .unwrap();
    assert_eq!(desc[0].symbol, full.last().unwrap().symbol);
    let beyond = TokenQuery::parse(None, None, None, Some("100000")).unwrap();
    assert!(token_list(&g, usdc, &beyond).unwrap().is_empty());
}

#[test]
fn bad_token_list_parameters_are_typed_errors() {
    for (args, name) in [
        ((Some("TVL"), None, None, None), "order_by"),
        ((Some("price"), None, None, None), "order_by"),
        ((None, Some("up"), None, None), "order_dir"),
        ((None, None, Some("0"), None), "limit"),
        ((None, None, Some("1001"), None), "limit"),
        ((None, None, Some("-1"), None), "limit"),
        ((None, None, Some("ten"), None), "limit"),
        ((None, None, None, Some("")), "offset"),
        ((None, None, None, Some("1e3")), "offset"),
        (
            (None, None, None, Some("99999999999999999999999999")),
            "offset",
        ),
    ] {
        let e = TokenQuery::parse(args.0, args.1, args.2, args.3).unwrap_err();
        match &e {
            RequestError::InvalidQueryParam { name: n, .. } => assert_eq!(*n, name),
            other => panic!("{other:?}"),
        }
        let top: Error = e.into();
        assert_eq!((top.code(), top.http_status()), (3080, 400));
    }
}

#[test]
fn liquidity_sources_and_price_body() {
    let g = bundled();
    let s = liquidity_sources(&g).unwrap();
    let ids: Vec<&str> = s.iter().map(|e| e.id.as_str()).collect();
    assert_eq!(
        ids,
        [
            "aerodrome",
            "curve",
            "sushiswap",
            "uniswap-v2",
            "uniswap-v3"
        ]
    );
    assert_eq!(s.iter().map(|e| e.pools).sum::<usize>(), g.n_pools());
    assert!(is_valid_source_id("uniswap-v2"));
    assert!(!is_valid_source_id("uniswap_v2"));
    assert!(!is_valid_source_id(""));
    assert!(!is_valid_source_id("curve ng"));

    let usdc = sym(&g, "USDC");
    let weth = sym(&g, "WETH");
    let p = price_body(&g, &addr(&g, weth), usdc).unwrap();
    assert!(p.price > 100.0, "{}", p.price);
    let v = serde_json::to_value(p).unwrap();
    assert_eq!(v.as_object().unwrap().len(), 1);
    assert!(v["price"].is_f64());
    // an LP with supply is routable; an unknown address is not
    assert!(price_body(&g, &addr(&g, lp_of(&g, CURVE_3POOL)), usdc).is_ok());
    assert_eq!(
        price_body(&g, "0x1111111111111111111111111111111111111111", usdc),
        Err(NotRoutable::UnknownToken)
    );
}
