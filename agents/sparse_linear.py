"""A linear layer for the int8 observation, computed from its nonzero entries (numba kernels).

An observation has 1,270 entries of which some 35 (1v1) to 70 (3v3) are nonzero, so a dense
first layer spends >95% of its multiply-adds on zeros; it was most of the trainer's time. Here
``y = x @ W + b`` is the same function, computed per row over the nonzero ``(column, value)``
pairs only (CSR form, built by ``agents.features.to_csr``), and the weight gradient ``x.T @ dy`` likewise. The
input gets no gradient (it is data). ``tests/agents/test_sparse_linear.py`` checks values and gradients
against ``torch.nn.functional.linear``.
"""

from __future__ import annotations

import math

import numba
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


@njit(cache=True, parallel=True)
def _weight_grad(indptr, cols, vals, grad_out, partial):
    """partial[c] = x[rows of chunk c].T @ grad_out[rows of chunk c]: a buffer per thread, no races.

    (The caller sums the chunks. Cheaper here than transposing x to split by input column.)
    """
    n = indptr.shape[0] - 1
    n_chunks = partial.shape[0]
    h = grad_out.shape[1]
    step = (n + n_chunks - 1) // n_chunks
    for chunk in prange(n_chunks):
        buf = partial[chunk]
        buf[:] = 0.0
        for i in range(chunk * step, min(n, (chunk + 1) * step)):
            for k in range(indptr[i], indptr[i + 1]):
                c = cols[k]
                v = vals[k]
                for j in range(h):
                    buf[c, j] += v * grad_out[i, j]


@njit(cache=True, parallel=True)
def _row_counts(x, counts):
    for i in prange(x.shape[0]):
        c = 0
        for j in range(x.shape[1]):
            if x[i, j] != 0:
                c += 1
        counts[i] = c


@njit(cache=True, parallel=True)
def _fill(x, indptr, cols, vals):
    for i in prange(x.shape[0]):
        k = indptr[i]
        for j in range(x.shape[1]):
            if x[i, j] != 0:
                cols[k] = j
                vals[k] = x[i, j]
                k += 1


def build_csr(n_rows: int, count, fill) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """CSR arrays from two kernels: ``count(counts)`` entries per row, then ``fill(indptr, cols, vals)``."""
    counts = np.empty(n_rows, dtype=np.int64)
    count(counts)
    indptr = np.zeros(n_rows + 1, dtype=np.int64)
    np.cumsum(counts, out=indptr[1:])
    cols = np.empty(indptr[-1], dtype=np.int64)
    vals = np.empty(indptr[-1], dtype=np.float32)
    fill(indptr, cols, vals)
    return indptr, cols, vals


def int8_csr(x: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(indptr, cols, vals)`` of a 2-D int8 array, its values as they are."""
    x = np.ascontiguousarray(x)
    if x.dtype != np.int8 or x.ndim != 2:
        raise ValueError(f"expected a 2-D int8 array, got {x.dtype} with shape {x.shape}")
    return build_csr(x.shape[0], lambda counts: _row_counts(x, counts),
                     lambda indptr, cols, vals: _fill(x, indptr, cols, vals))


class SparseLinear(nn.Module):
    """``nn.Linear(in_features, out_features)`` applied to rows given in CSR form.

    ``weight`` is stored (in_features, out_features): a row per input column, read contiguously
    for each nonzero entry. Initialised like the dense layer it replaces (orthogonal, zero bias).
    """

    def __init__(self, in_features: int, out_features: int, gain: float = math.sqrt(2), generator=None,
                 bias: bool = True):
        super().__init__()
        self.in_features, self.out_features = in_features, out_features
        w = torch.empty(out_features, in_features)
        nn.init.orthogonal_(w, gain, generator=generator)
        self.weight = nn.Parameter(w.t().contiguous())
        self.bias = nn.Parameter(torch.zeros(out_features)) if bias else None

    def forward(self, csr: tuple[np.ndarray, np.ndarray, np.ndarray]) -> torch.Tensor:
        """``csr``: ``(indptr, cols, vals)`` (int64, int64, float32) of n rows; returns (n, out_features)."""
        indptr, cols, vals = csr
        if cols.size and (cols.min() < 0 or cols.max() >= self.in_features):
            raise ValueError(f"a column outside 0..{self.in_features - 1}")
        bias = self.bias if self.bias is not None else torch.zeros(self.out_features)
        return _Fn.apply(self.weight, bias, *(torch.from_numpy(a) for a in csr))


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
        partial = torch.empty((numba.get_num_threads(), *ctx.weight_shape))
        _weight_grad(indptr.numpy(), cols.numpy(), vals.numpy(), g.numpy(), partial.numpy())
        return partial.sum(0), g.sum(0), None, None, None
