"""A linear layer for the int8 observation, computed from its nonzero entries (numba kernels).

An observation has 1,270 entries of which some 35 (1v1) to 70 (3v3) are nonzero, so a dense
first layer spends >95% of its multiply-adds on zeros; it was most of the trainer's time. Here
``y = x @ W + b`` is the same function, computed per row over the nonzero ``(column, value)``
pairs only (CSR form, built by ``train.features.to_csr``), and the weight gradient ``x.T @ dy`` likewise. The
input gets no gradient (it is data). ``tests/test_sparse_linear.py`` checks values and gradients
against ``torch.nn.functional.linear``.
"""

from __future__ import annotations

import math

import numpy as np
import torch
from numba import njit, prange
from torch import nn


@njit(cache=True, parallel=True)
def _forward(indptr, cols, vals, weight, out):
    """out[i] += sum_k vals[k] * weight[cols[k]] over row i's entries (weight is (d_in, d_out))."""
    n = indptr.shape[0] - 1
    h = weight.shape[1]
    for i in prange(n):
        for k in range(indptr[i], indptr[i + 1]):
            c = cols[k]
            v = vals[k]
            for j in range(h):
                out[i, j] += v * weight[c, j]


@njit(cache=True)
def _transpose(indptr, cols, vals, d_in, colptr, rows, tvals):
    """The CSC form (``colptr``, ``rows``, ``tvals``) of a CSR matrix with ``d_in`` columns."""
    n = indptr.shape[0] - 1
    colptr[:] = 0
    for k in range(cols.shape[0]):
        colptr[cols[k] + 1] += 1
    for c in range(d_in):
        colptr[c + 1] += colptr[c]
    fill = colptr[:-1].copy()
    for i in range(n):
        for k in range(indptr[i], indptr[i + 1]):
            c = cols[k]
            rows[fill[c]] = i
            tvals[fill[c]] = vals[k]
            fill[c] += 1


@njit(cache=True, parallel=True)
def _weight_grad(colptr, rows, tvals, grad_out, grad_weight):
    """grad_weight = x.T @ grad_out, a weight row per thread (no two threads write one cell)."""
    d_in = colptr.shape[0] - 1
    h = grad_out.shape[1]
    for c in prange(d_in):
        for k in range(colptr[c], colptr[c + 1]):
            r = rows[k]
            v = tvals[k]
            for j in range(h):
                grad_weight[c, j] += v * grad_out[r, j]


class SparseLinear(nn.Module):
    """``nn.Linear(in_features, out_features)`` applied to rows given in CSR form.

    ``weight`` is stored (in_features, out_features): a row per input column, read contiguously
    for each nonzero entry. Initialised like the dense layer it replaces (orthogonal, zero bias).
    """

    def __init__(self, in_features: int, out_features: int, gain: float = math.sqrt(2), generator=None):
        super().__init__()
        self.in_features, self.out_features = in_features, out_features
        w = torch.empty(out_features, in_features)
        nn.init.orthogonal_(w, gain, generator=generator)
        self.weight = nn.Parameter(w.t().contiguous())
        self.bias = nn.Parameter(torch.zeros(out_features))

    def forward(self, csr: tuple[np.ndarray, np.ndarray, np.ndarray]) -> torch.Tensor:
        """``csr``: ``(indptr, cols, vals)`` (int64, int64, float32) of n rows; returns (n, out_features)."""
        indptr, cols, vals = csr
        if cols.size and (cols.min() < 0 or cols.max() >= self.in_features):
            raise ValueError(f"a column outside 0..{self.in_features - 1}")
        return _Fn.apply(self.weight, self.bias, *(torch.from_numpy(a) for a in csr))


class _Fn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, weight, bias, indptr, cols, vals):
        ip, co, va = indptr.numpy(), cols.numpy(), vals.numpy()
        out = bias.detach().unsqueeze(0).repeat(ip.shape[0] - 1, 1)
        _forward(ip, co, va, weight.detach().numpy(), out.numpy())
        ctx.save_for_backward(indptr, cols, vals)
        ctx.weight_shape = tuple(weight.shape)
        return out

    @staticmethod
    def backward(ctx, grad_out):
        indptr, cols, vals = ctx.saved_tensors
        g = grad_out.contiguous()
        d_in = ctx.weight_shape[0]
        colptr = np.empty(d_in + 1, dtype=np.int64)
        rows = np.empty(cols.shape[0], dtype=np.int64)
        tvals = np.empty(cols.shape[0], dtype=np.float32)
        _transpose(indptr.numpy(), cols.numpy(), vals.numpy(), d_in, colptr, rows, tvals)
        grad_weight = torch.zeros(ctx.weight_shape)
        _weight_grad(colptr, rows, tvals, g.numpy(), grad_weight.numpy())
        return grad_weight, g.sum(0), None, None, None
