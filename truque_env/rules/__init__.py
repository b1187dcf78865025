"""Deprecated: ``truque_env.rules.moteno`` moved to ``truque_env.traditions.moteno.rules`` (kept for one release)."""
