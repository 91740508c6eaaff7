"""An OpenAI-compatible chat-completions client as a :class:`~retrieval.synthesis.SynthesisLLM`.

Switched on by the environment (read when a search asks for synthesis, so a restart is not needed to change it):

- ``ORGMEMORY_LLM_URL`` — the API base (``https://host/v1``) or the full ``…/chat/completions`` URL;
- ``ORGMEMORY_LLM_MODEL`` — the model name sent in each request;
- ``ORGMEMORY_LLM_API_KEY`` — optional bearer token;
- ``ORGMEMORY_LLM_TIMEOUT`` — seconds for the whole call (default 20).

Any failure raises; ``synthesize`` catches it and degrades to the deterministic answer.
"""

from __future__ import annotations

import os
from typing import Any

import httpx

DEFAULT_TIMEOUT_SECONDS = 20.0
MAX_TOKENS = 512
_COMPLETIONS_PATH = "/chat/completions"


class LLMError(RuntimeError):
    """The LLM endpoint answered with an error status or a payload that is not a chat completion."""


class OpenAICompatibleLLM:
    """``complete(system, prompt)`` → the first choice's message text, via ``POST {url}/chat/completions``."""

    def __init__(
        self,
        *,
        url: str,
        model: str,
        api_key: str | None = None,
        timeout: float = DEFAULT_TIMEOUT_SECONDS,
        max_tokens: int = MAX_TOKENS,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        url = url.rstrip("/")
        self.url = url if url.endswith(_COMPLETIONS_PATH) else url + _COMPLETIONS_PATH
        self.model = model
        self.timeout = timeout
        self.max_tokens = max_tokens
        self._api_key = api_key or None
        self._transport = transport

    def __repr__(self) -> str:  # never the key
        return f"OpenAICompatibleLLM(url={self.url!r}, model={self.model!r})"

    def complete(self, system: str, prompt: str) -> str:
        headers = {"Accept": "application/json"}
        if self._api_key:
            headers["Authorization"] = f"Bearer {self._api_key}"
        body = {
            "model": self.model,
            "messages": [{"role": "system", "content": system}, {"role": "user", "content": prompt}],
            "temperature": 0,
            "max_tokens": self.max_tokens,
        }
        with httpx.Client(timeout=self.timeout, transport=self._transport) as client:
            response = client.post(self.url, json=body, headers=headers)
        if response.status_code != 200:
            raise LLMError(f"LLM endpoint answered HTTP {response.status_code}")
        try:
            payload: Any = response.json()
            content = payload["choices"][0]["message"]["content"]
        except (ValueError, KeyError, IndexError, TypeError) as exc:
            raise LLMError(f"LLM endpoint returned no chat completion: {type(exc).__name__}") from exc
        if not isinstance(content, str):
            raise LLMError("LLM completion content is not text")
        return content


def llm_from_settings(environ: dict[str, str] | None = None) -> OpenAICompatibleLLM | None:
    """The configured LLM, or None when ``ORGMEMORY_LLM_URL`` or ``ORGMEMORY_LLM_MODEL`` is unset."""
    env = os.environ if environ is None else environ
    url = env.get("ORGMEMORY_LLM_URL", "").strip()
    model = env.get("ORGMEMORY_LLM_MODEL", "").strip()
    if not url or not model:
        return None
    try:
        timeout = float(env.get("ORGMEMORY_LLM_TIMEOUT", "") or DEFAULT_TIMEOUT_SECONDS)
    except ValueError:
        timeout = DEFAULT_TIMEOUT_SECONDS
    return OpenAICompatibleLLM(
        url=url, model=model, api_key=env.get("ORGMEMORY_LLM_API_KEY", "").strip() or None, timeout=timeout
    )
