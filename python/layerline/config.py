"""Where the SDK finds its server and key: arguments, then the environment, then the CLI's config file."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

DEFAULT_URL = "http://localhost:3000"


def config_path() -> Path:
    """The command-line client's config file: ``$XDG_CONFIG_HOME/layerline/config.json`` (``~/.config``)."""
    explicit = os.environ.get("LAYERLINE_CONFIG")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "layerline" / "config.json"


def read_config_file() -> dict[str, Any]:
    """``{url, key}`` written by ``layerline login``; empty when missing or unreadable."""
    try:
        with open(config_path(), encoding="utf-8") as f:
            data = json.load(f)
        return data if isinstance(data, dict) else {}
    except (OSError, ValueError):
        return {}


def normalize_base_url(url: str) -> str:
    """The server's origin: ``https://host`` from ``https://host/``, ``https://host/api/v1`` and so on."""
    url = url.strip().rstrip("/")
    for suffix in ("/api/v1", "/api"):
        if url.endswith(suffix):
            url = url[: -len(suffix)]
    return url


def resolve(api_key: str | None, base_url: str | None) -> tuple[str | None, str]:
    file = read_config_file() if not (api_key and base_url) else {}
    key = api_key or os.environ.get("LAYERLINE_API_KEY") or file.get("key") or file.get("api_key")
    url = base_url or os.environ.get("LAYERLINE_URL") or file.get("url") or DEFAULT_URL
    return (str(key) if key else None), normalize_base_url(str(url))
