"""Rules of each variant: card valuations as tables and plain functions (kernels use the same tables)."""
