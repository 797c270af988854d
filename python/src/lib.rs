//! Python bindings of swapzap (module `swapzap._native`, re-exported by the `swapzap` package).
//!
//! Everything here is glue: requests go through the library's own path
//! (`request::QuoteRequest` → `validate` → `route::RouteRequest::from_request` → `route::quote`),
//! plans are serialised by the library's `Plan::to_json` (what `quote --json` prints), pools are
//! built by `PoolGraph::from_snapshot` and priced by `pool::Pool`. Amounts cross the boundary as
//! Python ints converted exactly from and to `U256`; every error becomes `swapzap.SwapzapError`
//! with the library's stable code.

use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBytes, PyDict, PyInt, PyList, PyString, PyTuple};
use std::sync::Arc;
use swapzap::error::{BadRouteRequest, Error, RequestError, RouteError};
use swapzap::graph::{PoolGraph, PoolInfo};
use swapzap::plan::Plan as RustPlan;
use swapzap::route::{self, GasModel, RouteRequest};
use swapzap::service::request::{QuoteRequest, Request};
use swapzap::service::response::{optimality_gap, GasTable, QuoteResponse};
use swapzap::snapshot::{Snapshot as RustSnapshot, SnapshotPool, SnapshotToken};
use swapzap::units::TokenId;
use swapzap::U256;

mod zap;

// ------------------------------------------------------------------------------------ errors

static ERROR_CLASS: PyOnceLock<Py<PyAny>> = PyOnceLock::new();

/// `swapzap.SwapzapError(code, detail, retryable, error_class, http_status)` for a library error.
fn to_py_err(py: Python<'_>, e: &Error) -> PyErr {
    let detail = e.detail();
    let made = (|| -> PyResult<PyErr> {
        let cls = ERROR_CLASS.get_or_try_init(py, || -> PyResult<Py<PyAny>> {
            Ok(py
                .import("swapzap._errors")?
                .getattr("SwapzapError")?
                .unbind())
        })?;
        let obj = cls.bind(py).call1((
            e.code(),
            detail.as_str(),
            e.is_retryable(),
            e.class().to_string(),
            e.http_status(),
        ))?;
        Ok(PyErr::from_value(obj))
    })();
    made.unwrap_or_else(|err| err)
}

/// A Python-side argument that is not what the function takes (code 4010, validation).
fn bad_arg(why: &'static str) -> Error {
    Error::Route(RouteError::BadRequest(BadRouteRequest::Argument {
        what: why,
    }))
}

/// A JSON text that does not parse as the named schema (code 3000, validation).
fn malformed(what: &str, e: &dyn std::fmt::Display) -> Error {
    Error::Request(RequestError::MalformedBody {
        reason: format!("{what}: {e}"),
    })
}

type Res<T> = Result<T, Error>;

/// A Python argument of the wanted type, else a `SwapzapError` (4010) naming it: no
/// `TypeError` or `OverflowError` escapes for a bad argument.
fn arg<'py, T: for<'a> FromPyObject<'a, 'py>>(
    obj: &Bound<'py, PyAny>,
    why: &'static str,
) -> Res<T> {
    if obj.is_instance_of::<pyo3::types::PyBool>() {
        return Err(bad_arg(why));
    }
    obj.extract::<T>().map_err(|_| bad_arg(why))
}

/// An optional keyword argument (None = not given).
fn opt_arg<'py, T: for<'a> FromPyObject<'a, 'py>>(
    obj: Option<&Bound<'py, PyAny>>,
    why: &'static str,
) -> Res<Option<T>> {
    match obj {
        Some(o) if !o.is_none() => arg(o, why).map(Some),
        _ => Ok(None),
    }
}

/// Run `f`, turning a library error into a Python exception.
fn lift<T>(py: Python<'_>, r: Res<T>) -> PyResult<T> {
    r.map_err(|e| to_py_err(py, &e))
}

// ------------------------------------------------------------------------------------ amounts

/// An exact `U256` from a Python int (or an object with `__index__`): negative values, values
/// of 2^256 or more and non-integers are errors, never wrapped or rounded.
fn to_u256(obj: &Bound<'_, PyAny>) -> Res<U256> {
    if obj.is_instance_of::<pyo3::types::PyBool>() {
        return Err(bad_arg("amount: a bool is not an amount"));
    }
    if let Ok(v) = obj.extract::<u64>() {
        return Ok(U256::from(v));
    }
    let int = if obj.is_instance_of::<PyInt>() {
        obj.clone()
    } else {
        obj.call_method0("__index__")
            .map_err(|_| bad_arg("amount: not an integer"))?
    };
    if int.lt(0).unwrap_or(true) {
        return Err(bad_arg("amount: negative"));
    }
    let bytes = int
        .call_method1("to_bytes", (32, "little"))
        .map_err(|_| bad_arg("amount: at or above 2^256"))?;
    let b = bytes
        .cast::<PyBytes>()
        .map_err(|_| bad_arg("amount: not an integer"))?;
    Ok(U256::from_little_endian(b.as_bytes()))
}

/// A Python int equal to `v`.
fn from_u256<'py>(py: Python<'py>, v: U256) -> PyResult<Bound<'py, PyAny>> {
    if v <= U256::from(u64::MAX) {
        return Ok(v.low_u64().into_pyobject(py)?.into_any());
    }
    let le = v.to_little_endian();
    py.get_type::<PyInt>()
        .call_method1("from_bytes", (PyBytes::new(py, &le), "little"))
}

fn u256_list<'py>(py: Python<'py>, vs: &[U256]) -> PyResult<Bound<'py, PyList>> {
    let items = vs
        .iter()
        .map(|v| from_u256(py, *v))
        .collect::<PyResult<Vec<_>>>()?;
    PyList::new(py, items)
}

// ------------------------------------------------------------------------------------ JSON

/// Nesting deeper than this is a malformed body (serde_json's own limit for JSON text).
const MAX_DEPTH: usize = 128;

/// A body, snapshot or pool argument read into `T` by its serde schema: a `str` is JSON text;
/// anything else is taken as the JSON value that `json.dumps` would write for it (dicts with
/// string keys, lists and tuples, str, int, float, bool, None), converted directly. Anything
/// else, NaN and infinities included, is a malformed body (3000).
fn from_py<T: serde::de::DeserializeOwned>(obj: &Bound<'_, PyAny>, what: &str) -> Res<T> {
    if let Ok(s) = obj.cast::<PyString>() {
        let text = s.to_cow().map_err(|e| malformed(what, &e))?;
        return serde_json::from_str(&text).map_err(|e| malformed(what, &e));
    }
    let v = to_value(obj, 0).map_err(|why| malformed(what, &why))?;
    serde_json::from_value(v).map_err(|e| malformed(what, &e))
}

/// The JSON value of a Python object, as `json.dumps` reads it (see [`from_py`]).
fn to_value(obj: &Bound<'_, PyAny>, depth: usize) -> Result<serde_json::Value, &'static str> {
    use serde_json::Value;
    if depth > MAX_DEPTH {
        return Err("nested too deeply");
    }
    let deeper = depth.saturating_add(1);
    if obj.is_none() {
        return Ok(Value::Null);
    }
    if let Ok(b) = obj.cast::<pyo3::types::PyBool>() {
        return Ok(Value::Bool(b.is_true()));
    }
    if let Ok(s) = obj.cast::<PyString>() {
        return s
            .to_cow()
            .map(|c| Value::String(c.into_owned()))
            .map_err(|_| "a string that is not UTF-8");
    }
    if obj.is_instance_of::<PyInt>() {
        if let Ok(v) = obj.extract::<u64>() {
            return Ok(Value::from(v));
        }
        if let Ok(v) = obj.extract::<i64>() {
            return Ok(Value::from(v));
        }
        // JSON text of a larger integer parses as the nearest f64, as here
        let f: f64 = obj.extract().map_err(|_| "an integer out of range")?;
        return serde_json::Number::from_f64(f)
            .map(Value::Number)
            .ok_or("an integer out of range");
    }
    if let Ok(f) = obj.cast::<pyo3::types::PyFloat>() {
        return serde_json::Number::from_f64(f.value())
            .map(Value::Number)
            .ok_or("NaN or an infinity is not JSON");
    }
    if let Ok(d) = obj.cast::<PyDict>() {
        let mut m = serde_json::Map::new();
        for (k, v) in d.iter() {
            let k = k
                .cast::<PyString>()
                .map_err(|_| "an object key that is not a string")?
                .to_cow()
                .map_err(|_| "a string that is not UTF-8")?
                .into_owned();
            m.insert(k, to_value(&v, deeper)?);
        }
        return Ok(Value::Object(m));
    }
    if obj.is_instance_of::<PyList>() || obj.is_instance_of::<PyTuple>() {
        let mut a = Vec::new();
        for v in obj.try_iter().map_err(|_| "not iterable")? {
            a.push(to_value(&v.map_err(|_| "not iterable")?, deeper)?);
        }
        return Ok(Value::Array(a));
    }
    Err("not a JSON value (dict, list, str, int, float, bool or None)")
}

/// Python's `json.loads(text)`.
fn json_loads<'py>(py: Python<'py>, text: &str) -> PyResult<Bound<'py, PyAny>> {
    py.import("json")?.call_method1("loads", (text,))
}

fn to_json_string<T: serde::Serialize>(v: &T, pretty: bool) -> Res<String> {
    let r = if pretty {
        serde_json::to_string_pretty(v)
    } else {
        serde_json::to_string(v)
    };
    r.map_err(|_| bad_arg("plan: not representable as JSON"))
}

// ------------------------------------------------------------------------------------ Snapshot

/// A validated pool snapshot (schema of the routing benchmark) and its routing graph.
#[pyclass(module = "swapzap", frozen)]
pub struct Snapshot {
    graph: Arc<PoolGraph>,
    snap: Arc<RustSnapshot>,
    sources: Vec<String>,
}

impl Snapshot {
    fn new(snap: RustSnapshot) -> Res<Self> {
        let graph = PoolGraph::from_snapshot(&snap)?;
        let sources = graph.sources().into_iter().map(str::to_owned).collect();
        Ok(Snapshot {
            graph: Arc::new(graph),
            snap: Arc::new(snap),
            sources,
        })
    }

    /// A quote body (dict or JSON text) as the spec's `QuoteRequest`.
    fn body(request: &Bound<'_, PyAny>) -> Res<QuoteRequest> {
        from_py(request, "request")
    }

    /// The router request of a quote body with the keyword options applied: the library's one
    /// way from a body to a route, `RouteRequest::from_body` (validation for the body's chain,
    /// which must be the snapshot's, then `from_request`), as the quote example takes it.
    fn route_request(&self, request: &Bound<'_, PyAny>, opts: QuoteOptions) -> Res<RouteRequest> {
        let mut r = RouteRequest::from_body(&Self::body(request)?, &self.graph)?;
        opts.apply(&mut r)?;
        Ok(r)
    }

    /// The typed request of a body that `route_request` accepts, and its router request.
    fn validated(&self, request: &Bound<'_, PyAny>) -> Res<(Request, RouteRequest)> {
        let body = Self::body(request)?;
        let r = RouteRequest::from_body(&body, &self.graph)?;
        let known: Vec<&str> = self.sources.iter().map(String::as_str).collect();
        Ok((body.validate(&known)?, r))
    }

    fn plan(&self, plan: RustPlan) -> Plan {
        Plan {
            plan,
            graph: Arc::clone(&self.graph),
        }
    }
}

/// The keyword options of `quote` / `quote_batch`.
#[derive(Clone, Copy)]
struct QuoteOptions {
    max_hops: Option<usize>,
    gas_price: Option<f64>,
    exact_out: Option<U256>,
}

impl QuoteOptions {
    fn read(
        max_hops: Option<&Bound<'_, PyAny>>,
        gas_price: Option<&Bound<'_, PyAny>>,
        exact_out: Option<&Bound<'_, PyAny>>,
    ) -> Res<Self> {
        Ok(QuoteOptions {
            max_hops: opt_arg(max_hops, "max_hops must be an integer >= 1")?,
            gas_price: opt_arg(gas_price, "gas_price must be a finite number >= 0")?,
            exact_out: match exact_out {
                Some(a) if !a.is_none() => Some(to_u256(a)?),
                _ => None,
            },
        })
    }

    fn apply(self, r: &mut RouteRequest) -> Res<()> {
        if let Some(h) = self.max_hops {
            // the router checks the range (1 to route::MAX_HOPS_LIMIT, else 4010)
            r.max_hops = Some(h);
        }
        if let Some(p) = self.gas_price {
            if !(p.is_finite() && p >= 0.0) {
                return Err(bad_arg("gas_price must be a finite number >= 0"));
            }
            r.gas = Some(GasModel::typical(p));
        }
        // the router checks the shape (one input, one output) and the amount (> 0)
        r.exact_out = self.exact_out;
        Ok(())
    }
}

#[pymethods]
impl Snapshot {
    /// Read a snapshot from JSON text (schema of `../shared/routing/README.md` §2).
    #[staticmethod]
    fn from_json(py: Python<'_>, text: &Bound<'_, PyAny>) -> PyResult<Self> {
        let text: String = lift(py, arg(text, "snapshot: JSON text (str)"))?;
        let snap = lift(
            py,
            serde_json::from_str(&text).map_err(|e| malformed("snapshot", &e)),
        )?;
        lift(py, Self::new(snap))
    }

    /// Read a snapshot from a dict of the same schema.
    #[staticmethod]
    fn from_dict(py: Python<'_>, d: &Bound<'_, PyAny>) -> PyResult<Self> {
        let snap = lift(py, from_py(d, "snapshot"))?;
        lift(py, Self::new(snap))
    }

    /// The chain id.
    #[getter]
    fn chain_id(&self) -> u64 {
        self.graph.chain_id()
    }

    /// The liquidity source ids of the pools, sorted.
    #[getter]
    fn sources(&self) -> Vec<String> {
        self.sources.clone()
    }

    /// The tokens of the routing graph (LP tokens included): dicts with `address`, `symbol`,
    /// `decimals` and `lp_of` (the id of the pool whose LP token it is, else None).
    fn tokens<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let mut out = Vec::with_capacity(self.graph.n_tokens());
        for (k, t) in self.graph.tokens().iter().enumerate() {
            let d = PyDict::new(py);
            d.set_item("address", &t.address)?;
            d.set_item("symbol", &t.symbol)?;
            d.set_item("decimals", t.decimals)?;
            let lp_of = u32::try_from(k)
                .ok()
                .and_then(|k| self.graph.pool_of_lp(TokenId(k)))
                .and_then(|p| self.graph.pool(p))
                .map(|p| p.id.clone());
            d.set_item("lp_of", lp_of)?;
            out.push(d);
        }
        PyList::new(py, out)
    }

    /// The pools as given in the snapshot (dicts of the snapshot schema).
    fn pools<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let text = lift(py, to_json_string(&self.snap.pools, false))?;
        json_loads(py, &text)
    }

    /// One pool by id, for exact pricing (`swapzap.Pool`).
    fn pool(&self, py: Python<'_>, id: &Bound<'_, PyAny>) -> PyResult<Pool> {
        let id: String = lift(py, arg(id, "pool id: a string"))?;
        let id = id.as_str();
        let p = self
            .graph
            .pool_id(id)
            .and_then(|p| self.graph.pool(p))
            .ok_or_else(|| {
                to_py_err(
                    py,
                    &bad_arg("pool id: no pool with this id in the snapshot"),
                )
            })?;
        lift(py, Pool::from_info(&self.graph, p))
    }

    /// Quote a spec quote body (dict or JSON text): the exact plan of `route::quote`.
    #[pyo3(signature = (request, *, max_hops=None, gas_price=None, exact_out=None))]
    fn quote(
        &self,
        py: Python<'_>,
        request: &Bound<'_, PyAny>,
        max_hops: Option<&Bound<'_, PyAny>>,
        gas_price: Option<&Bound<'_, PyAny>>,
        exact_out: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Plan> {
        let opts = lift(py, QuoteOptions::read(max_hops, gas_price, exact_out))?;
        let r = lift(py, self.route_request(request, opts))?;
        let graph = &self.graph;
        let plan = py.detach(|| route::quote(graph, &r));
        lift(py, plan.map_err(Error::Route)).map(|p| self.plan(p))
    }

    /// Quote many bodies in parallel (rayon, the GIL released): the same plans, in the same
    /// order, as one by one. With `return_exceptions=True` a failed request gives its
    /// `SwapzapError` in its place instead of raising.
    #[pyo3(signature = (requests, *, max_hops=None, gas_price=None, exact_out=None, return_exceptions=None))]
    fn quote_batch<'py>(
        &self,
        py: Python<'py>,
        requests: &Bound<'py, PyAny>,
        max_hops: Option<&Bound<'py, PyAny>>,
        gas_price: Option<&Bound<'py, PyAny>>,
        exact_out: Option<&Bound<'py, PyAny>>,
        return_exceptions: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyList>> {
        let opts = lift(py, QuoteOptions::read(max_hops, gas_price, exact_out))?;
        let return_exceptions = match return_exceptions {
            Some(r) => r.is_truthy()?,
            None => false,
        };
        let items = lift(
            py,
            requests
                .try_iter()
                .map_err(|_| bad_arg("requests: an iterable of quote bodies")),
        )?;
        let mut parsed: Vec<Res<RouteRequest>> = Vec::new();
        for item in items {
            parsed.push(self.route_request(&item?, opts));
        }
        if !return_exceptions {
            if let Some(Err(e)) = parsed.iter().find(|r| r.is_err()) {
                return Err(to_py_err(py, e));
            }
        }
        let ok: Vec<RouteRequest> = parsed
            .iter()
            .filter_map(|r| r.as_ref().ok().cloned())
            .collect();
        let graph = &self.graph;
        let mut plans = py.detach(|| route::quote_batch(graph, &ok)).into_iter();
        let mut out: Vec<Bound<'py, PyAny>> = Vec::with_capacity(parsed.len());
        for r in parsed {
            let res = match r {
                Ok(_) => plans
                    .next()
                    .unwrap_or(Err(RouteError::BadRequest(BadRouteRequest::Argument {
                        what: "requests: a result for every request",
                    })))
                    .map_err(Error::Route),
                Err(e) => Err(e),
            };
            match res {
                Ok(p) => out.push(Bound::new(py, self.plan(p))?.into_any()),
                Err(e) if return_exceptions => {
                    out.push(to_py_err(py, &e).into_value(py).into_bound(py).into_any())
                }
                Err(e) => return Err(to_py_err(py, &e)),
            }
        }
        PyList::new(py, out)
    }

    /// Plan a spec zap body (dict or JSON text) with the library's `service::zap::zap_request`: one
    /// LP output with proportion 1 is a zap-in (LP-to-LP from LP inputs); LP inputs with token
    /// outputs are a zap-out. `gas_price` prices the swap legs.
    #[pyo3(signature = (request, *, gas_price=None))]
    fn zap(
        &self,
        py: Python<'_>,
        request: &Bound<'_, PyAny>,
        gas_price: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Plan> {
        let gas_price = lift(py, QuoteOptions::read(None, gas_price, None))?.gas_price;
        if gas_price.is_some_and(|p| !(p.is_finite() && p >= 0.0)) {
            return Err(to_py_err(
                py,
                &bad_arg("gas_price must be a finite number >= 0"),
            ));
        }
        let (req, _) = lift(py, self.validated(request))?;
        let graph = &self.graph;
        let plan = py.detach(|| zap::run(graph, &req, gas_price));
        lift(py, plan).map(|p| self.plan(p))
    }

    /// Validate a quote body on this snapshot without quoting: the canonical body back (dict),
    /// or `SwapzapError` with the code of the first rule it breaks.
    fn validate<'py>(
        &self,
        py: Python<'py>,
        request: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let (req, _) = lift(py, self.validated(request))?;
        let text = lift(py, to_json_string(&req.to_body(), false))?;
        json_loads(py, &text)
    }

    fn __repr__(&self) -> String {
        format!(
            "Snapshot(chain_id={}, tokens={}, pools={})",
            self.graph.chain_id(),
            self.graph.n_tokens(),
            self.graph.n_pools()
        )
    }
}

// ------------------------------------------------------------------------------------ Plan

/// An exact plan on a snapshot.
#[pyclass(module = "swapzap", frozen)]
pub struct Plan {
    plan: RustPlan,
    graph: Arc<PoolGraph>,
}

impl Plan {
    fn json_text(&self, pretty: bool) -> Res<String> {
        let j = self.plan.to_json(&self.graph)?;
        to_json_string(&j, pretty)
    }

    fn address(&self, t: TokenId) -> Res<String> {
        self.graph
            .token(t)
            .map(|i| i.address.clone())
            .ok_or(Error::Route(RouteError::TokenOutOfRange(t)))
    }

    /// A route picture drawn by `swapzap._picture.<which>(response, decimals)`.
    fn picture(&self, py: Python<'_>, which: &str) -> PyResult<String> {
        let decimals = PyDict::new(py);
        for t in self.graph.tokens() {
            decimals.set_item(t.address.to_ascii_lowercase(), t.decimals)?;
        }
        py.import("swapzap._picture")?
            .call_method1(which, (self.response(py)?, decimals))?
            .extract()
    }

    /// The plan's JSON view as a dict with amounts turned into ints (for the properties).
    fn with_ints<'py>(&self, py: Python<'py>, key: &str) -> PyResult<Bound<'py, PyAny>> {
        let d = self.to_dict(py)?;
        py.import("swapzap._picture")?
            .call_method1("ints", (d.get_item(key)?,))
    }
}

#[pymethods]
impl Plan {
    /// The plan as the dict that `quote --json` prints (amounts as decimal strings).
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let text = lift(py, self.json_text(false))?;
        json_loads(py, &text)
    }

    /// The plan's JSON text; `pretty=True` (default) is exactly what `quote --json` prints,
    /// less the final newline.
    #[pyo3(signature = (pretty=None))]
    fn to_json(&self, py: Python<'_>, pretty: Option<&Bound<'_, PyAny>>) -> PyResult<String> {
        let pretty = match pretty {
            Some(p) => p.is_truthy()?,
            None => true,
        };
        lift(py, self.json_text(pretty))
    }

    /// The spec's quote response body for this plan (less `pathId`), with the route graph.
    fn response<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let r = lift(
            py,
            QuoteResponse::from_plan(&self.plan, &self.graph, &GasTable::default()),
        )?;
        let text = lift(py, to_json_string(&r, false))?;
        json_loads(py, &text)
    }

    /// Check the plan against `snapshot` and `request` with the library's
    /// `Plan::verify_request`: every step re-simulated exactly, and the plan answering the
    /// request field by field (inputs, zap fee for a zap body, slippage, outputs and minimums,
    /// refunds, gas units at the plan's gas price, value and bound). With `exact_out` the
    /// inputs may be less than the request's (same tokens) and the output must reach
    /// `exact_out` (`PlanRequest::exact_out`). `max_hops` is the hop limit the plan was
    /// quoted under (`PlanRequest::max_hops`): its swaps only through pool directions within
    /// it and its `bound_max_hops` equal to it (None: no limit, the bound over every plan).
    /// The request's source filters hold too: no swap through a pool they leave out. A swap's
    /// bound is re-derived (`route::verify_quote`, a dual solve): not below the router's, its
    /// rounding slack the certificate's, its price impact its outputs' at the request's mid
    /// prices; a zap's by the engine's own zap of the body: not below its bound, none where it
    /// has none, and that zap's price impact.
    /// Raises
    /// `SwapzapError` (4014 naming the field that does not hold) and returns None otherwise.
    #[pyo3(signature = (snapshot, request, *, exact_out=None, max_hops=None))]
    fn verify(
        &self,
        py: Python<'_>,
        snapshot: &Bound<'_, PyAny>,
        request: &Bound<'_, PyAny>,
        exact_out: Option<&Bound<'_, PyAny>>,
        max_hops: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<()> {
        let snapshot = lift(
            py,
            snapshot
                .cast::<Snapshot>()
                .map_err(|_| bad_arg("snapshot: a swapzap.Snapshot")),
        )?
        .get();
        let (req, _) = lift(py, snapshot.validated(request))?;
        let wanted = match exact_out {
            Some(a) if !a.is_none() => Some(lift(py, to_u256(a))?),
            _ => None,
        };
        let hops = lift(py, opt_arg(max_hops, "max_hops must be an integer >= 1"))?;
        let graph = &snapshot.graph;
        let gas = self.plan.gas_price.map(GasModel::typical);
        let options = (gas, wanted, hops);
        let checked = swapzap::service::verify_plan(graph, &req, &self.plan, options);
        lift(py, checked.map_err(Into::into))
    }

    /// The objective value (base units of the first output; the basket value for several).
    #[getter]
    fn value(&self) -> f64 {
        self.plan.value
    }

    /// The dual upper bound: no plan can reach more (None when not computed).
    #[getter]
    fn upper_bound(&self) -> Option<f64> {
        self.plan.upper_bound
    }

    /// `(upper_bound − value) / upper_bound` in [0, 1] (None without a bound).
    #[getter]
    fn gap(&self) -> Option<f64> {
        optimality_gap(self.plan.value, self.plan.upper_bound)
    }

    /// The part of `upper_bound` that is integer rounding a plan could win against the pools'
    /// float curves (a solidly fee floored, a Curve output a unit above its curve); None
    /// where there is no bound or it was not split (zap plans).
    #[getter]
    fn rounding_slack(&self) -> Option<f64> {
        self.plan.rounding_slack
    }

    /// The plan's distance from the float model's bound, `upper_bound − rounding_slack`:
    /// what `gap` is beyond this is integer rounding (may be negative where the plan's own
    /// rounding beats the float curves).
    #[getter]
    fn float_gap(&self) -> Option<f64> {
        self.plan.float_gap()
    }

    /// Price impact against mid prices, as a fraction (fees included).
    #[getter]
    fn price_impact(&self) -> f64 {
        self.plan.price_impact
    }

    /// The hop limit the bound is over: None when it bounds every plan on the snapshot (no
    /// `max_hops` given), else the `max_hops` of the request.
    #[getter]
    fn bound_max_hops(&self) -> Option<usize> {
        self.plan.bound_max_hops
    }

    /// The gas price the plan was chosen with (None: no gas model, `value` is gross).
    #[getter]
    fn gas_price(&self) -> Option<f64> {
        self.plan.gas_price
    }

    /// Gas units of the steps (0 without a gas model).
    #[getter]
    fn gas_units(&self) -> u64 {
        self.plan.gas_units
    }

    /// The steps in execution order: dicts as in `to_dict()["steps"]`, amounts as ints.
    #[getter]
    fn steps<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.with_ints(py, "steps")
    }

    /// The inputs: dicts `token`, `amount` (int).
    #[getter]
    fn inputs<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.with_ints(py, "inputs")
    }

    /// The outputs: dicts `token`, `amount`, `min_amount` (ints).
    #[getter]
    fn outputs<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.with_ints(py, "outputs")
    }

    /// Pools the router left out because their exact swap reverted: `pool` (id), `reason`.
    #[getter]
    fn excluded<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let d = PyList::empty(py);
        for x in &self.plan.excluded {
            let e = PyDict::new(py);
            let id = self.graph.pool(x.pool).map(|p| p.id.clone());
            e.set_item("pool", id.unwrap_or_default())?;
            e.set_item("reason", x.error.to_string())?;
            d.append(e)?;
        }
        Ok(d.into_any())
    }

    /// What the plan returns unspent: dicts `token`, `amount` (int).
    #[getter]
    fn refunds<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let d = PyList::empty(py);
        for r in &self.plan.refunds {
            let e = PyDict::new(py);
            e.set_item("token", lift(py, self.address(r.token))?)?;
            e.set_item("amount", from_u256(py, r.amount)?)?;
            d.append(e)?;
        }
        Ok(d.into_any())
    }

    /// The amount of the first output (int).
    #[getter]
    fn amount_out<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let a = self
            .plan
            .outputs
            .first()
            .map(|o| o.amount)
            .unwrap_or_default();
        from_u256(py, a)
    }

    /// Number of steps.
    fn __len__(&self) -> usize {
        self.plan.steps.len()
    }

    /// The route as Graphviz DOT: tokens as nodes, pools as labelled edges with amounts and
    /// shares.
    fn to_dot(&self, py: Python<'_>) -> PyResult<String> {
        self.picture(py, "to_dot")
    }

    /// The route as a standalone SVG picture (no Graphviz needed).
    fn to_svg(&self, py: Python<'_>) -> PyResult<String> {
        self.picture(py, "to_svg")
    }

    /// Notebook display: the SVG route picture.
    fn _repr_svg_(&self, py: Python<'_>) -> PyResult<String> {
        self.to_svg(py)
    }

    fn __repr__(&self) -> String {
        let outs: Vec<String> = self
            .plan
            .outputs
            .iter()
            .map(|o| {
                format!(
                    "{} of {}",
                    o.amount,
                    self.address(o.token).unwrap_or_default()
                )
            })
            .collect();
        let bound = self
            .plan
            .upper_bound
            .map_or_else(|| "None".to_owned(), |b| b.to_string());
        format!(
            "Plan(steps={}, outputs=[{}], value={}, upper_bound={bound})",
            self.plan.steps.len(),
            outs.join(", "),
            self.plan.value,
        )
    }
}

// ------------------------------------------------------------------------------------ Pool

/// One pool of the snapshot schema, priced exactly as its contract.
#[pyclass(module = "swapzap", frozen)]
pub struct Pool {
    info: PoolInfo,
    addresses: Vec<String>,
}

impl Pool {
    fn from_info(graph: &PoolGraph, info: &PoolInfo) -> Res<Self> {
        let addresses = info
            .tokens
            .iter()
            .map(|t| {
                graph
                    .token(*t)
                    .map(|i| i.address.clone())
                    .ok_or(Error::Route(RouteError::TokenOutOfRange(*t)))
            })
            .collect::<Res<Vec<_>>>()?;
        Ok(Pool {
            info: info.clone(),
            addresses,
        })
    }

    /// Build through `PoolGraph::from_snapshot` on a one-pool snapshot, so that the pool is
    /// checked and built exactly as in a snapshot.
    fn new(p: SnapshotPool, decimals: Option<Vec<u8>>, chain_id: u64) -> Res<Self> {
        let decs = match decimals {
            Some(d) if d.len() == p.tokens.len() => d,
            Some(_) => return Err(bad_arg("decimals: one per pool token")),
            None => p
                .decimals
                .clone()
                .filter(|d| d.len() == p.tokens.len())
                .unwrap_or_else(|| vec![18; p.tokens.len()]),
        };
        let tokens = p
            .tokens
            .iter()
            .zip(decs)
            .map(|(a, d)| SnapshotToken {
                address: a.clone(),
                symbol: String::new(),
                decimals: d,
            })
            .collect();
        let snap = RustSnapshot {
            chain_id,
            tokens,
            pools: vec![p],
        };
        let graph = PoolGraph::from_snapshot(&snap)?;
        let info = graph
            .pools()
            .first()
            .ok_or(bad_arg("pool: the snapshot holds no pool"))?;
        Self::from_info(&graph, info)
    }

    /// The coin index of a token given as an address or an index.
    fn index(&self, token: &Bound<'_, PyAny>) -> Res<usize> {
        if let Ok(i) = token.extract::<usize>() {
            if i < self.addresses.len() && !token.is_instance_of::<pyo3::types::PyBool>() {
                return Ok(i);
            }
            return Err(bad_arg("token: index out of range"));
        }
        let a: String = token
            .extract()
            .map_err(|_| bad_arg("token: an address or a coin index"))?;
        let want = a.to_ascii_lowercase();
        self.addresses
            .iter()
            .position(|x| x.to_ascii_lowercase() == want)
            .ok_or_else(|| {
                Error::Route(RouteError::UnknownToken {
                    pool: self.info.id.clone(),
                    address: a,
                })
            })
    }

    fn pair(&self, a: &Bound<'_, PyAny>, b: &Bound<'_, PyAny>) -> Res<(usize, usize)> {
        let (i, j) = (self.index(a)?, self.index(b)?);
        if i == j {
            return Err(bad_arg("token_in and token_out are the same coin"));
        }
        Ok((i, j))
    }

    fn amounts(&self, amounts: &Bound<'_, PyAny>) -> Res<Vec<U256>> {
        let items: Vec<Bound<'_, PyAny>> = amounts
            .try_iter()
            .map_err(|_| bad_arg("amounts: a list of ints, one per coin"))?
            .collect::<PyResult<_>>()
            .map_err(|_| bad_arg("amounts: a list of ints, one per coin"))?;
        if items.len() != self.addresses.len() {
            return Err(bad_arg("amounts: one per coin"));
        }
        items.iter().map(to_u256).collect()
    }

    fn with_state(&self, pool: swapzap::pool::Pool) -> Pool {
        let mut info = self.info.clone();
        info.pool = pool;
        Pool {
            info,
            addresses: self.addresses.clone(),
        }
    }
}

#[pymethods]
impl Pool {
    /// A pool from a dict of the snapshot schema (`../shared/routing/README.md` §2). Token
    /// decimals default to the pool's `decimals` field, else 18 (Curve pools take `rates`);
    /// `chain_id=101` reads base58 addresses.
    #[staticmethod]
    #[pyo3(signature = (pool, *, decimals=None, chain_id=None))]
    fn from_dict(
        py: Python<'_>,
        pool: &Bound<'_, PyAny>,
        decimals: Option<&Bound<'_, PyAny>>,
        chain_id: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let decimals = lift(
            py,
            opt_arg(decimals, "decimals: a list of ints 0-77, one per token"),
        )?;
        let chain_id = lift(py, opt_arg(chain_id, "chain_id: an integer"))?.unwrap_or(1);
        let p = lift(py, from_py(pool, "pool"))?;
        lift(py, Self::new(p, decimals, chain_id))
    }

    /// The pool id.
    #[getter]
    fn id(&self) -> String {
        self.info.id.clone()
    }

    /// The liquidity source id.
    #[getter]
    fn source(&self) -> String {
        self.info.source.clone()
    }

    /// The pool family as the snapshot's `kind` names it (`"constant_product"`, `"solidly"`,
    /// `"stableswap"`, and the chain-101 families).
    #[getter]
    fn kind(&self) -> String {
        // the snapshot schema's own name of the family (serde, snake_case)
        serde_json::to_value(self.info.kind)
            .ok()
            .and_then(|v| v.as_str().map(str::to_owned))
            .unwrap_or_default()
    }

    /// The coin addresses in pool order.
    #[getter]
    fn tokens(&self) -> Vec<String> {
        self.addresses.clone()
    }

    /// The balances (ints, pool order).
    #[getter]
    fn balances<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        u256_list(py, self.info.pool.balances())
    }

    /// The LP total supply (int).
    #[getter]
    fn total_supply<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        from_u256(py, self.info.pool.total_supply())
    }

    /// The contract's quote for `amount` of `token_in` (`getAmountOut`, `get_dy`).
    fn amount_out<'py>(
        &self,
        py: Python<'py>,
        token_in: &Bound<'py, PyAny>,
        token_out: &Bound<'py, PyAny>,
        amount: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let out = self.on_pair(py, token_in, token_out, amount, |p, i, j, x| {
            Ok(p.amount_out(i, j, x)?)
        })?;
        from_u256(py, out)
    }

    /// The least input of `token_in` whose exact output of `token_out` is at least `amount`.
    /// (Uniswap V2's `getAmountIn` adds 1 to its division; see `get_amount_in`.)
    fn amount_in<'py>(
        &self,
        py: Python<'py>,
        token_in: &Bound<'py, PyAny>,
        token_out: &Bound<'py, PyAny>,
        amount: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let input = self.on_pair(py, token_in, token_out, amount, |p, i, j, x| {
            Ok(p.amount_in(i, j, x)?)
        })?;
        from_u256(py, input)
    }

    /// Uniswap V2's `getAmountIn` (constant-product pools only): the router library's input
    /// for an exact output, always one above its floor division.
    fn get_amount_in<'py>(
        &self,
        py: Python<'py>,
        token_in: &Bound<'py, PyAny>,
        token_out: &Bound<'py, PyAny>,
        amount: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let input = self.on_pair(py, token_in, token_out, amount, |p, i, j, x| match p {
            swapzap::pool::Pool::ConstantProduct(p) => Ok(p.amount_in(i, j, x)?),
            _ => Err(bad_arg("get_amount_in: constant-product pools only")),
        })?;
        from_u256(py, input)
    }

    /// The exact-in swap as the contract executes it: `(amount_out, pool_after)`.
    fn swap<'py>(
        &self,
        py: Python<'py>,
        token_in: &Bound<'py, PyAny>,
        token_out: &Bound<'py, PyAny>,
        amount: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let (out, state) = self.on_pair(py, token_in, token_out, amount, |p, i, j, x| {
            Ok(p.swap(i, j, x)?)
        })?;
        self.and_after(py, from_u256(py, out)?, state)
    }

    /// LP minted for depositing `amounts` (one int per coin, pool order).
    fn mint<'py>(
        &self,
        py: Python<'py>,
        amounts: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        from_u256(py, self.deposit_inner(py, amounts)?.0)
    }

    /// `(lp_minted, pool_after)` for depositing `amounts`.
    fn deposit<'py>(
        &self,
        py: Python<'py>,
        amounts: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let (lp, state) = self.deposit_inner(py, amounts)?;
        self.and_after(py, from_u256(py, lp)?, state)
    }

    /// Coins returned for burning `lp` proportionally (ints, pool order).
    fn burn<'py>(&self, py: Python<'py>, lp: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyList>> {
        u256_list(py, &self.withdraw_inner(py, lp)?.0)
    }

    /// `(amounts, pool_after)` for burning `lp` proportionally.
    fn withdraw<'py>(
        &self,
        py: Python<'py>,
        lp: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let (amounts, state) = self.withdraw_inner(py, lp)?;
        self.and_after(py, u256_list(py, &amounts)?.into_any(), state)
    }

    /// Coins of `token` returned for burning `lp` into that one coin (Curve
    /// `remove_liquidity_one_coin`): `(amount, pool_after)`.
    fn burn_one<'py>(
        &self,
        py: Python<'py>,
        lp: &Bound<'py, PyAny>,
        token: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let r = (|| -> Res<(U256, swapzap::pool::Pool)> {
            let i = self.index(token)?;
            Ok(self.info.pool.burn_one(to_u256(lp)?, i)?)
        })();
        let (out, state) = lift(py, r)?;
        self.and_after(py, from_u256(py, out)?, state)
    }

    /// d(out)/d(in) at zero size, fee included, raw units (a float: for plots, not amounts).
    fn marginal_rate(
        &self,
        py: Python<'_>,
        token_in: &Bound<'_, PyAny>,
        token_out: &Bound<'_, PyAny>,
    ) -> PyResult<f64> {
        let (i, j) = lift(py, self.pair(token_in, token_out))?;
        Ok(self.info.pool.marginal_rate(i, j))
    }

    fn __repr__(&self) -> String {
        format!(
            "Pool(id={:?}, kind={:?}, balances={:?})",
            self.info.id,
            self.kind(),
            self.info
                .pool
                .balances()
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
        )
    }
}

impl Pool {
    /// `op` on the pool with the coin indices of `token_in` / `token_out` and the exact
    /// `amount`; its error as a `SwapzapError`.
    fn on_pair<T>(
        &self,
        py: Python<'_>,
        token_in: &Bound<'_, PyAny>,
        token_out: &Bound<'_, PyAny>,
        amount: &Bound<'_, PyAny>,
        op: impl FnOnce(&swapzap::pool::Pool, usize, usize, U256) -> Res<T>,
    ) -> PyResult<T> {
        let r = self
            .pair(token_in, token_out)
            .and_then(|(i, j)| op(&self.info.pool, i, j, to_u256(amount)?));
        lift(py, r)
    }

    /// `(value, pool_after)`.
    fn and_after<'py>(
        &self,
        py: Python<'py>,
        value: Bound<'py, PyAny>,
        state: swapzap::pool::Pool,
    ) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(
            py,
            [value, Bound::new(py, self.with_state(state))?.into_any()],
        )
    }

    fn deposit_inner(
        &self,
        py: Python<'_>,
        amounts: &Bound<'_, PyAny>,
    ) -> PyResult<(U256, swapzap::pool::Pool)> {
        let r = (|| -> Res<(U256, swapzap::pool::Pool)> {
            Ok(self.info.pool.mint(&self.amounts(amounts)?)?)
        })();
        lift(py, r)
    }

    fn withdraw_inner(
        &self,
        py: Python<'_>,
        lp: &Bound<'_, PyAny>,
    ) -> PyResult<(swapzap::pool::Amounts, swapzap::pool::Pool)> {
        let r = (|| -> Res<(swapzap::pool::Amounts, swapzap::pool::Pool)> {
            Ok(self.info.pool.burn(to_u256(lp)?)?)
        })();
        lift(py, r)
    }
}

// ------------------------------------------------------------------------------------ module

/// The native module.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Snapshot>()?;
    m.add_class::<Plan>()?;
    m.add_class::<Pool>()?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
