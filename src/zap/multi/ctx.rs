//! The plan being built: pool states after the steps so far, holdings, steps; the burns,
//! swaps and routed legs every plan-level zap is made of.

use super::ZapOptions;
use crate::error::ZapError;
use crate::graph::PoolGraph;
use crate::plan::{Plan, Step, TokenAmount, ZapFee};
use crate::pool::Pool;
use crate::route::{quote, RouteRequest};
use crate::units::{PoolId, TokenId};
use alloc::collections::BTreeMap;
use alloc::vec::Vec;
use num_rational::Ratio;
use primitive_types::U256;
/// The pool `p` checked for LP operations (a mint into it, a burn of its LP): not a
/// concentrated-liquidity pool (its positions are not fungible LP tokens:
/// [`ZapError::Unsupported`]); its supply must be known ([`RouteError::NoSupply`](crate::error::RouteError::NoSupply) otherwise) and, while
/// it holds reserves, non-zero ([`ZapError::ZeroSupply`]: its LP would have no price).
pub(super) fn lp_pool(graph: &PoolGraph, p: PoolId) -> Result<&crate::graph::PoolInfo, ZapError> {
    use crate::error::ZapUnsupported;
    match graph.pool(p).map(|i| &i.pool) {
        Some(Pool::ConcentratedLiquidity(_)) => {
            return Err(ZapError::Unsupported(ZapUnsupported::ConcentratedLiquidity))
        }
        Some(Pool::Whirlpool(_)) => {
            return Err(ZapError::Unsupported(ZapUnsupported::WhirlpoolPosition))
        }
        _ => {}
    }
    let info = graph.lp_pool(p)?;
    if info.pool.total_supply().is_zero() && info.pool.balances().iter().any(|b| !b.is_zero()) {
        return Err(ZapError::ZeroSupply {
            pool: info.id.clone(),
        });
    }
    Ok(info)
}

/// The state of a plan being built: pool states after the steps so far, holdings, steps.
#[derive(Clone)]
pub(super) struct Ctx<'g> {
    pub(super) graph: &'g PoolGraph,
    pub(super) states: BTreeMap<PoolId, Pool>,
    pub(super) hold: BTreeMap<TokenId, U256>,
    pub(super) steps: Vec<Step>,
}

impl<'g> Ctx<'g> {
    pub(super) fn new(graph: &'g PoolGraph) -> Self {
        Self {
            graph,
            states: BTreeMap::new(),
            hold: BTreeMap::new(),
            steps: Vec::new(),
        }
    }

    pub(super) fn state(&self, p: PoolId) -> Result<&Pool, ZapError> {
        match self.states.get(&p) {
            Some(s) => Ok(s),
            None => self
                .graph
                .pool(p)
                .map(|i| &i.pool)
                .ok_or(ZapError::Unsupported(
                    crate::error::ZapUnsupported::PoolOutOfRange { pool: p },
                )),
        }
    }

    pub(super) fn coins(&self, p: PoolId) -> Result<Vec<TokenId>, ZapError> {
        self.graph
            .pool(p)
            .map(|i| i.tokens.clone())
            .ok_or(ZapError::Unsupported(
                crate::error::ZapUnsupported::PoolOutOfRange { pool: p },
            ))
    }

    pub(super) fn held(&self, t: TokenId) -> U256 {
        self.hold.get(&t).copied().unwrap_or_default()
    }

    pub(super) fn credit(&mut self, t: TokenId, a: U256) -> Result<(), ZapError> {
        let h = self.hold.entry(t).or_insert_with(U256::zero);
        *h = crate::math::add(*h, a)?;
        Ok(())
    }

    pub(super) fn debit(&mut self, t: TokenId, a: U256) -> Result<(), ZapError> {
        let h = self.hold.entry(t).or_insert_with(U256::zero);
        *h = crate::math::sub(*h, a)?;
        Ok(())
    }

    /// Burn `lp` of pool `p` proportionally.
    pub(super) fn burn(&mut self, p: PoolId, lp: U256) -> Result<(), ZapError> {
        lp_pool(self.graph, p)?;
        let (amounts, after) = self.state(p)?.burn(lp)?;
        let lp_token = self.graph.lp_token(p)?;
        self.debit(lp_token, lp)?;
        for (t, a) in self.coins(p)?.into_iter().zip(amounts.iter()) {
            self.credit(t, *a)?;
        }
        self.steps.push(Step::Burn {
            pool: p,
            lp_in: lp,
            amounts_out: amounts.to_vec(),
        });
        self.states.insert(p, after);
        Ok(())
    }

    /// Burn `lp` of pool `p`: proportionally, or for a Curve or Saber pool by a one-coin
    /// withdrawal when that returns more. When exactly one coin `w` of the pool is among `wanted` (the target
    /// coins of a zap-in, the outputs of a zap-out), the two are compared exactly: the one-coin
    /// withdrawal of `w` against the proportional burn followed by swapping the other coins into
    /// `w` through the same pool (which is what the zap would otherwise have to do at best).
    pub(super) fn burn_best(
        &mut self,
        p: PoolId,
        lp: U256,
        wanted: &[TokenId],
    ) -> Result<(), ZapError> {
        lp_pool(self.graph, p)?;
        let state = self.state(p)?;
        if !matches!(state, Pool::StableSwap(_) | Pool::Saber(_)) {
            return self.burn(p, lp);
        }
        let coins = self.coins(p)?;
        let mut hits = coins.iter().enumerate().filter(|(_, t)| wanted.contains(t));
        let (Some((w, coin)), None) = (hits.next(), hits.next()) else {
            return self.burn(p, lp);
        };
        let coin = *coin;
        let Ok((one, after_one)) = state.burn_one(lp, w) else {
            return self.burn(p, lp);
        };
        // Proportional, then every other coin into w through the same pool.
        let (prop, mut st) = state.burn(lp)?;
        let mut total = prop.get(w).copied().unwrap_or_default();
        for (k, a) in prop.iter().enumerate() {
            if k == w || a.is_zero() {
                continue;
            }
            match st.swap(k, w, *a) {
                Ok((out, next)) => {
                    total = crate::math::add(total, out)?;
                    st = next;
                }
                Err(_) => return self.burn(p, lp),
            }
        }
        if one <= total {
            return self.burn(p, lp);
        }
        self.took_one(p, lp, coin, one, after_one)
    }

    /// Burn `lp` of pool `p` by a one-coin withdrawal of its coin `i` (a Curve or Saber pool;
    /// the pool's error otherwise).
    pub(super) fn burn_one(&mut self, p: PoolId, lp: U256, i: usize) -> Result<(), ZapError> {
        lp_pool(self.graph, p)?;
        let coin = *self.coins(p)?.get(i).ok_or(ZapError::Unsupported(
            crate::error::ZapUnsupported::CoinIndex { pool: p, index: i },
        ))?;
        let (one, after) = self.state(p)?.burn_one(lp, i)?;
        self.took_one(p, lp, coin, one, after)
    }

    /// Record a one-coin withdrawal of `lp` of pool `p` that returned `one` of `coin` and left
    /// the pool at `after`.
    fn took_one(
        &mut self,
        p: PoolId,
        lp: U256,
        coin: TokenId,
        one: U256,
        after: Pool,
    ) -> Result<(), ZapError> {
        let lp_token = self.graph.lp_token(p)?;
        self.debit(lp_token, lp)?;
        self.credit(coin, one)?;
        self.steps.push(Step::BurnOne {
            pool: p,
            lp_in: lp,
            token_out: coin,
            amount_out: one,
        });
        self.states.insert(p, after);
        Ok(())
    }

    /// Burn every LP token held but `keep` (the zap-in's target LP, which passes through),
    /// each the best way for the tokens `wanted` ([`Ctx::burn_best`]).
    pub(super) fn burn_lp_holdings(
        &mut self,
        keep: Option<TokenId>,
        wanted: &[TokenId],
    ) -> Result<(), ZapError> {
        for (t, a) in self.holdings() {
            if Some(t) == keep {
                continue;
            }
            if let Some(p) = self.graph.pool_of_lp(t) {
                self.burn_best(p, a, wanted)?;
            }
        }
        Ok(())
    }

    /// Swap up to `amount_in` of `t_in` for `t_out` through pool `p` (all of it, except what
    /// an SPL Token Swap pool would not take: [`Pool::exact_offer`]); the output.
    pub(super) fn swap(
        &mut self,
        p: PoolId,
        t_in: TokenId,
        t_out: TokenId,
        amount_in: U256,
    ) -> Result<U256, ZapError> {
        let i = self
            .graph
            .coin_index(p, t_in)
            .ok_or(ZapError::UnknownToken(t_in))?;
        let j = self
            .graph
            .coin_index(p, t_out)
            .ok_or(ZapError::UnknownToken(t_out))?;
        // the pool takes `amount_in` whole except SPL Token Swap, offered what it takes; the
        // rest stays held (a refund unless a later step uses it)
        let (amount_in, out, after) = self.state(p)?.swap_taken(i, j, amount_in)?;
        self.debit(t_in, amount_in)?;
        self.credit(t_out, out)?;
        self.steps.push(Step::Swap {
            pool: p,
            token_in: t_in,
            token_out: t_out,
            amount_in,
            amount_out: out,
        });
        self.states.insert(p, after);
        Ok(out)
    }

    /// The graph the router sees: the original one, or a copy with the states left by the
    /// steps so far.
    pub(super) fn route_graph(&self) -> Result<Option<PoolGraph>, ZapError> {
        if self.states.is_empty() {
            return Ok(None);
        }
        let mut g = self.graph.clone();
        for (p, s) in &self.states {
            g.set_pool_state(*p, s.clone())?;
        }
        Ok(Some(g))
    }

    /// Quote a swap leg on the current states (nothing applied).
    pub(super) fn quote(
        &self,
        g: Option<&PoolGraph>,
        inputs: &[(TokenId, U256)],
        outputs: &[(TokenId, Ratio<u64>)],
        opts: &ZapOptions,
    ) -> Result<Plan, ZapError> {
        let mut req = RouteRequest::new(inputs.to_vec(), outputs.to_vec());
        req.max_hops = opts.max_hops;
        req.slippage = opts.slippage;
        req.source_whitelist.clone_from(&opts.source_whitelist);
        req.source_blacklist.clone_from(&opts.source_blacklist);
        req.gas = opts.gas;
        Ok(quote(g.unwrap_or(self.graph), &req)?)
    }

    /// Take a router plan's swaps (quoted exactly on the current states). Steps through a pool
    /// in `replay` are re-simulated to follow its state (the target pool of a zap-in, whose
    /// state the final mint needs); the others are taken as the router simulated them, and
    /// [`Plan::verify`] re-runs everything.
    pub(super) fn apply_route(&mut self, plan: &Plan, replay: &[PoolId]) -> Result<(), ZapError> {
        for s in &plan.steps {
            let Some((pool, sold, bought)) = s.as_swap() else {
                return Err(ZapError::Unsupported(
                    crate::error::ZapUnsupported::LegNonSwapStep,
                ));
            };
            if replay.contains(&pool) {
                let out = self.swap(pool, sold.token, bought.token, sold.amount)?;
                if out != bought.amount {
                    return Err(ZapError::Unsupported(
                        crate::error::ZapUnsupported::LegNotExact {
                            pool,
                            expected: bought.amount,
                            got: out,
                        },
                    ));
                }
            } else {
                self.debit(sold.token, sold.amount)?;
                self.credit(bought.token, bought.amount)?;
                self.steps.push(s.clone());
            }
        }
        Ok(())
    }

    /// Take the fee from each input and credit the rest. Returns the fee record.
    pub(super) fn take_inputs(
        &mut self,
        inputs: &[(TokenId, U256)],
        fee_bps: u32,
    ) -> Result<(Vec<TokenAmount>, Option<ZapFee>), ZapError> {
        let mut merged: BTreeMap<TokenId, U256> = BTreeMap::new();
        for (t, a) in inputs {
            self.graph.token(*t).ok_or(ZapError::UnknownToken(*t))?;
            let m = merged.entry(*t).or_insert_with(U256::zero);
            *m = crate::math::add(*m, *a)?;
        }
        merged.retain(|_, a| !a.is_zero());
        if merged.is_empty() {
            return Err(ZapError::EmptyInput);
        }
        let mut list = Vec::new();
        let mut taken = Vec::new();
        for (t, a) in &merged {
            let fee = super::zap_fee(*a, fee_bps)?;
            list.push(TokenAmount {
                token: *t,
                amount: *a,
            });
            if !fee.is_zero() {
                taken.push(TokenAmount {
                    token: *t,
                    amount: fee,
                });
            }
            self.credit(*t, crate::math::sub(*a, fee)?)?;
        }
        let fee = (fee_bps > 0).then_some(ZapFee {
            rate_bps: fee_bps,
            taken,
        });
        Ok((list, fee))
    }

    /// Non-zero holdings, in token order.
    pub(super) fn holdings(&self) -> Vec<(TokenId, U256)> {
        self.hold
            .iter()
            .filter(|(_, a)| !a.is_zero())
            .map(|(t, a)| (*t, *a))
            .collect()
    }
}

/// The target of a zap-in and what is held of it before the steps (after the fee): what the
/// bounds of [`super::zap_in`] (routed legs, LP inputs) start from.
pub(super) struct TargetHoldings {
    pub(super) target: PoolId,
    pub(super) coins: Vec<TokenId>,
    /// the target's coins held (one per coin)
    pub(super) held: Vec<U256>,
    /// the target's own LP held (it passes through)
    pub(super) lp: U256,
    /// the target's LP token
    pub(super) lp_token: TokenId,
}

/// The target pool's tangent at a deposit point ([`TargetHoldings::tangent`]).
pub(super) struct Tangent<'g> {
    pub(super) pool: &'g Pool,
    /// the weights, one per coin of the target
    pub(super) w: Vec<f64>,
    /// the same weights paired with the target's coins (a router's output weights)
    pub(super) weights: Vec<(TokenId, f64)>,
}

impl TargetHoldings {
    /// What `ctx` holds of the target `target` (LP token `lp_out`, coins `coins`).
    pub(super) fn of(ctx: &Ctx<'_>, target: PoolId, lp_out: TokenId, coins: &[TokenId]) -> Self {
        Self {
            target,
            coins: coins.to_vec(),
            held: coins.iter().map(|t| ctx.held(*t)).collect(),
            lp: ctx.held(lp_out),
            lp_token: lp_out,
        }
    }

    /// The target pool's tangent at the deposit point `z` ([`crate::zap::bound::tangent`]).
    /// `None` for an unknown pool or where the tangent has none.
    pub(super) fn tangent<'g>(&self, graph: &'g PoolGraph, z: &[U256]) -> Option<Tangent<'g>> {
        let pool = &graph.pool(self.target)?.pool;
        let w = crate::zap::bound::tangent(pool, z)?;
        let weights = self.coins.iter().copied().zip(w.iter().copied()).collect();
        Some(Tangent { pool, w, weights })
    }

    /// The bound on the LP a zap ends with: the target's mint on the coins held plus `routed`
    /// (the routed legs' bound at the weights `w`), plus the target LP already held. `None`
    /// where the mint has no bound or the sum is not finite.
    pub(super) fn mint_bound(&self, pool: &Pool, w: &[f64], routed: f64) -> Option<f64> {
        let b = crate::zap::bound::routed_mint_upper_bound(pool, &self.held, w, routed)?;
        #[allow(clippy::arithmetic_side_effects)] // f64
        let b = b + crate::math::float::to_f64(self.lp);
        b.is_finite().then_some(b)
    }
}
