//! A spanning-tree preconditioner for the conjugate gradients of the sparse Newton systems.
//!
//! The sparse Newton matrix is a weighted graph Laplacian on the active tokens plus a diagonal
//! (`reg`), pinned at one coordinate (`p0`). Its weights spread over many orders of magnitude
//! (pool depths), which is what makes the Jacobi-preconditioned iteration slow: a chain of deep
//! pools behind a shallow one needs one iteration per link. The active graph of a market is
//! nearly a tree (a few more edges than tokens), so the preconditioner is the matrix on a
//! maximum-weight spanning forest of it: parallel edges between the same two tokens are merged
//! into their tree edge, and every token keeps its whole diagonal (`reg` and the weights of
//! all its edges), so `M = A − (the off-tree couplings)`, symmetric positive definite (strictly
//! diagonally dominant where the regularisation is positive). Solving with `M` is exact
//! elimination from the leaves to the roots, no fill, `O(m)`.
#![allow(clippy::arithmetic_side_effects, clippy::indexing_slicing)]
// f64 and indices < m checked by construction
// NaN-aware comparisons (`!(x > 0.0)`) are deliberate: a NaN must fail every check.
#![allow(clippy::neg_cmp_op_on_partial_ord)]

use super::linalg::Lap;
use alloc::vec;
use alloc::vec::Vec;

/// No parent: a root of the forest, or the pinned coordinate's children's link to it.
const NONE: u32 = u32::MAX;

/// The factored spanning-forest matrix ([`TreePre::new`], [`TreePre::apply`]).
#[derive(Debug)]
pub(super) struct TreePre {
    /// tokens from the roots down (breadth first from `p0`, then from each other component's
    /// first token); `p0` is not in it
    order: Vec<u32>,
    /// per token: its parent in the forest (`NONE` for a root, or when the parent is `p0`)
    parent: Vec<u32>,
    /// per token: the weight of the tree edge to its parent (merged with parallel edges)
    w: Vec<f64>,
    /// per token: the pivot of the elimination from the leaves
    piv: Vec<f64>,
    p0: usize,
}

impl TreePre {
    /// The preconditioner of the pinned matrix `L(blocks) + diag(reg)` (`diag`: the Laplacian's
    /// diagonal, every edge's weight at both ends); `None` when a pivot is not positive.
    pub(super) fn new(blocks: &[Lap], diag: &[f64], reg: &[f64], p0: usize) -> Option<TreePre> {
        let m = diag.len();
        let tree = spanning_forest(blocks, m);
        let (order, parent, w) = root_forest(blocks, &tree, m, p0);
        // eliminate from the leaves: a token's pivot is final once its children are out
        let mut d: Vec<f64> = diag.iter().zip(reg).map(|(a, r)| a + r).collect();
        let mut piv = vec![0.0; m];
        for &v in order.iter().rev() {
            let v = v as usize;
            let pv = d[v];
            if !(pv > 0.0) || !pv.is_finite() {
                return None;
            }
            piv[v] = pv;
            let p = parent[v];
            if p != NONE {
                d[p as usize] -= w[v] * w[v] / pv;
            }
        }
        Some(TreePre {
            order,
            parent,
            w,
            piv,
            p0,
        })
    }

    /// `z ← M⁻¹ r` (`z[p0]` = 0; `r[p0]` is ignored). `z` is used as the work vector.
    pub(super) fn apply(&self, r: &[f64], z: &mut [f64]) {
        z.copy_from_slice(r);
        // forward: the leaves' right-hand sides folded into their parents
        for &v in self.order.iter().rev() {
            let v = v as usize;
            let p = self.parent[v];
            if p != NONE {
                z[p as usize] += self.w[v] / self.piv[v] * z[v];
            }
        }
        z[self.p0] = 0.0;
        // back: from the roots down
        for &v in &self.order {
            let v = v as usize;
            let p = self.parent[v];
            let up = if p == NONE {
                0.0
            } else {
                self.w[v] * z[p as usize]
            };
            z[v] = (z[v] + up) / self.piv[v];
        }
    }
}

/// The edges (indices into `blocks`) of a maximum-weight spanning forest on `m` tokens
/// (Kruskal: heaviest first, union-find with path halving).
fn spanning_forest(blocks: &[Lap], m: usize) -> Vec<u32> {
    // (weight bits, index) pairs: the sort compares what it moves instead of loading each
    // weight through its index, as integers (the weights are positive and finite, and such
    // f64 order like their bits: the same order as comparing the floats)
    let mut by_w: Vec<(u64, u32)> = blocks
        .iter()
        .enumerate()
        .map(|(k, b)| (b.2.to_bits(), u32::try_from(k).unwrap_or(u32::MAX)))
        .collect();
    by_w.sort_unstable_by_key(|b| core::cmp::Reverse(b.0));
    let mut up: Vec<u32> = (0..m).map(|k| u32::try_from(k).unwrap_or(NONE)).collect();
    let find = |up: &mut [u32], mut x: u32| {
        while up[x as usize] != x {
            let g = up[up[x as usize] as usize];
            up[x as usize] = g;
            x = g;
        }
        x
    };
    let mut tree = Vec::with_capacity(m);
    for (_, k) in by_w {
        let (i, o, _) = blocks[k as usize];
        let (a, b) = (find(&mut up, i), find(&mut up, o));
        if a != b {
            up[a as usize] = b;
            tree.push(k);
            if tree.len() + 1 >= m {
                break;
            }
        }
    }
    tree
}

/// The forest rooted at `p0` (and at the first token of each other component): the order from
/// the roots down without `p0`, each token's parent (`NONE` for a root or a child of `p0`) and
/// the weight to it, with the weights of the other edges between the same two tokens added.
fn root_forest(
    blocks: &[Lap],
    tree: &[u32],
    m: usize,
    p0: usize,
) -> (Vec<u32>, Vec<u32>, Vec<f64>) {
    // the forest's adjacency (CSR)
    let mut start = vec![0usize; m + 1];
    for &k in tree {
        let (i, o, _) = blocks[k as usize];
        start[i as usize + 1] += 1;
        start[o as usize + 1] += 1;
    }
    for k in 0..m {
        start[k + 1] += start[k];
    }
    let mut fill = start.clone();
    let mut nb = vec![(0u32, 0.0f64); start[m]];
    for &k in tree {
        let (i, o, w) = blocks[k as usize];
        nb[fill[i as usize]] = (o, w);
        fill[i as usize] += 1;
        nb[fill[o as usize]] = (i, w);
        fill[o as usize] += 1;
    }
    // breadth first from p0, then from each token not reached yet (order is the queue)
    let mut parent = vec![NONE; m];
    let mut w = vec![0.0; m];
    let mut seen = vec![false; m];
    let mut order: Vec<u32> = Vec::with_capacity(m);
    let mut head = 0;
    for r in core::iter::once(p0).chain(0..m) {
        if seen[r] {
            continue;
        }
        seen[r] = true;
        // p0 is pinned: its children get no parent (their coupling to it is not solved for)
        let mut visit = |u: usize, order: &mut Vec<u32>| {
            for &(v, wt) in &nb[start[u]..start[u + 1]] {
                let vi = v as usize;
                if !seen[vi] {
                    seen[vi] = true;
                    if u != p0 {
                        parent[vi] = u32::try_from(u).unwrap_or(NONE);
                        w[vi] = wt;
                    }
                    order.push(v);
                }
            }
        };
        if r != p0 {
            order.push(u32::try_from(r).unwrap_or(NONE));
            head = order.len();
        }
        visit(r, &mut order);
        while head < order.len() {
            let u = order[head] as usize;
            head += 1;
            visit(u, &mut order);
        }
    }
    // parallel edges: an off-tree edge between a token and its parent joins the tree edge
    let mut is_tree = vec![false; blocks.len()];
    for &k in tree {
        is_tree[k as usize] = true;
    }
    for (k, &(i, o, wt)) in blocks.iter().enumerate() {
        if is_tree[k] {
            continue;
        }
        if parent[i as usize] == o {
            w[i as usize] += wt;
        } else if parent[o as usize] == i {
            w[o as usize] += wt;
        }
    }
    (order, parent, w)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `A v` for the pinned matrix `L(blocks) + diag(reg)` (row and column `p0` out).
    fn apply_a(blocks: &[Lap], reg: &[f64], v: &[f64], p0: usize) -> Vec<f64> {
        let mut out: Vec<f64> = reg.iter().zip(v).map(|(r, x)| r * x).collect();
        for &(i, o, w) in blocks {
            let (i, o) = (i as usize, o as usize);
            let (vi, vo) = (
                if i == p0 { 0.0 } else { v[i] },
                if o == p0 { 0.0 } else { v[o] },
            );
            out[i] += w * (vi - vo);
            out[o] -= w * (vi - vo);
        }
        out[p0] = 0.0;
        out
    }

    /// A forest (random parents, weights over twelve orders of magnitude) has `M = A`: one
    /// application solves the pinned system, parallel edges and a second component included.
    #[test]
    fn a_forest_is_solved_exactly() {
        let mut seed = 7u64;
        let mut f = || {
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (seed >> 11) as f64 / (1u64 << 53) as f64
        };
        let m = 200;
        let mut blocks: Vec<Lap> = Vec::new();
        for k in 1..m {
            // tokens 150.. form a second tree, not connected to p0's
            let lo = if k > 150 { 150 } else { 0 };
            let parent = lo + (f() * (k - lo) as f64) as usize;
            if parent == k {
                continue;
            }
            let w = 10f64.powf(12.0 * f() - 6.0);
            blocks.push((parent as u32, k as u32, w));
            if k % 17 == 0 {
                // a parallel pool between the same two tokens
                blocks.push((k as u32, parent as u32, 0.5 * w));
            }
        }
        let mut diag = vec![0.0; m];
        for &(i, o, w) in &blocks {
            diag[i as usize] += w;
            diag[o as usize] += w;
        }
        let dmax = diag.iter().copied().fold(0.0, f64::max);
        let reg = vec![1e-12 * dmax; m];
        for p0 in [0, 3, 170] {
            let t = TreePre::new(&blocks, &diag, &reg, p0).expect("factor");
            let r: Vec<f64> = (0..m).map(|_| f() - 0.5).collect();
            let mut z = vec![0.0; m];
            t.apply(&r, &mut z);
            assert_eq!(z[p0], 0.0);
            let az = apply_a(&blocks, &reg, &z, p0);
            let zmax = z.iter().fold(0.0f64, |a, v| a.max(v.abs()));
            for k in (0..m).filter(|k| *k != p0) {
                assert!(
                    (az[k] - r[k]).abs() <= 1e-9 * (dmax * zmax).max(1.0),
                    "p0 {p0} row {k}: {} vs {}",
                    az[k],
                    r[k]
                );
            }
        }
    }

    /// The forest is a maximum-weight one: of a triangle, the lightest edge is left out.
    #[test]
    fn the_spanning_forest_keeps_the_heavy_edges() {
        let blocks: Vec<Lap> = vec![(0, 1, 5.0), (1, 2, 1.0), (0, 2, 3.0), (3, 4, 2.0)];
        let mut tree = spanning_forest(&blocks, 5);
        tree.sort_unstable();
        assert_eq!(tree, vec![0, 2, 3]);
    }
}
