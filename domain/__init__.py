"""Cloister's pure rules layer: the game contract, its kernel, and the games.

Nothing here does I/O, reads a clock or touches global randomness.
"""

from .bots import Bot, RandomBot
from .errors import (
    DomainError,
    GameOver,
    IllegalCommand,
    InvalidCommand,
    InvalidOptions,
    NotYourTurn,
    RuleViolation,
    UnknownCommand,
)
from .game import Game, GameBase, Options, OptionSpec, Result, fold, type_name, validate_options
from .narration import GlossaryEntry, Names, ScoreLine, Standing
from .randomness import Context, Rng
from .registry import GameType, Registry, default_registry, make_registry
from .secrets import UndeclaredSecrets, event, secret
from .simultaneous import ChoiceCommitted, ChoicesRevealed, SecretChoices
from .viewers import REVIEW, SPECTATOR, Seat, Viewer, seat_viewer

__all__ = [
    "REVIEW",
    "SPECTATOR",
    "Bot",
    "ChoiceCommitted",
    "ChoicesRevealed",
    "Context",
    "DomainError",
    "Game",
    "GameBase",
    "GameOver",
    "GameType",
    "GlossaryEntry",
    "IllegalCommand",
    "InvalidCommand",
    "InvalidOptions",
    "Names",
    "NotYourTurn",
    "OptionSpec",
    "Options",
    "RandomBot",
    "Registry",
    "Result",
    "Rng",
    "RuleViolation",
    "ScoreLine",
    "Seat",
    "SecretChoices",
    "Standing",
    "UndeclaredSecrets",
    "UnknownCommand",
    "Viewer",
    "default_registry",
    "event",
    "fold",
    "make_registry",
    "seat_viewer",
    "secret",
    "type_name",
    "validate_options",
]
