"""The rules, one concern per module: queries (derived facts), evolve, flow (automatic
phases), legal (legal-move generation) and decide (checking commands)."""
