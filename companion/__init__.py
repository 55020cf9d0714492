"""JongRogue Companion: play JongRogue EZ Plus (雀ローグEZプラス) with a real mahjong set."""

__version__ = "0.1.0"
