"""Policies that act at a table: bots, learned policies and people share one interface (agents.base)."""

from agents.base import Policy, RandomPolicy

__all__ = ["Policy", "RandomPolicy"]
