"""The OpenAI-compatible synthesis adapter against a real local HTTP server."""

from __future__ import annotations

import pytest

from retrieval.llm import LLMError, OpenAICompatibleLLM, llm_from_settings
from tests.api.conftest import FakeLLM


@pytest.fixture
def server():
    with FakeLLM() as fake:
        yield fake


class TestAdapter:
    def test_posts_a_chat_completion_and_returns_the_text(self, server):
        llm = OpenAICompatibleLLM(url=server.url, model="m", api_key="sk-1", timeout=5)

        reply = llm.complete("be brief", "Question?")

        assert reply == "The platform team deploys Zephyr with Argo CD [1]."
        request = server.requests[0]
        assert request["path"] == "/v1/chat/completions"
        assert request["headers"]["Authorization"] == "Bearer sk-1"
        assert request["body"] == {
            "model": "m",
            "messages": [{"role": "system", "content": "be brief"}, {"role": "user", "content": "Question?"}],
            "temperature": 0,
            "max_tokens": 512,
        }

    def test_a_full_completions_url_is_used_as_is_and_no_key_sends_no_header(self, server):
        llm = OpenAICompatibleLLM(url=server.url + "/chat/completions/", model="m", timeout=5)

        llm.complete("s", "p")

        assert server.requests[0]["path"] == "/v1/chat/completions"
        assert "Authorization" not in server.requests[0]["headers"]

    @pytest.mark.parametrize(("mode", "message"), [("garbage", "no chat completion"), ("error", "HTTP 503")])
    def test_bad_answers_raise(self, server, mode, message):
        server.mode = mode

        with pytest.raises(LLMError, match=message):
            OpenAICompatibleLLM(url=server.url, model="m", timeout=5).complete("s", "p")

    def test_an_unreachable_server_raises(self):
        with FakeLLM() as fake:
            url = fake.url  # closed on exit: nothing listens there any more

        with pytest.raises(Exception):  # httpx.s connect error; synthesize catches any
            OpenAICompatibleLLM(url=url, model="m", timeout=1).complete("s", "p")

    def test_repr_never_shows_the_key(self):
        assert "sk-secret" not in repr(OpenAICompatibleLLM(url="http://x/v1", model="m", api_key="sk-secret"))


class TestFromSettings:
    def test_unset_means_no_llm(self):
        assert llm_from_settings({}) is None
        assert llm_from_settings({"ORGMEMORY_LLM_URL": "http://x/v1"}) is None
        assert llm_from_settings({"ORGMEMORY_LLM_MODEL": "m"}) is None

    def test_configured_from_the_environment(self):
        llm = llm_from_settings(
            {
                "ORGMEMORY_LLM_URL": "http://llm.internal/v1",
                "ORGMEMORY_LLM_MODEL": "qwen",
                "ORGMEMORY_LLM_API_KEY": "k",
                "ORGMEMORY_LLM_TIMEOUT": "3.5",
            }
        )

        assert (llm.url, llm.model, llm.timeout) == ("http://llm.internal/v1/chat/completions", "qwen", 3.5)

    def test_a_bad_timeout_falls_back_to_the_default(self):
        llm = llm_from_settings(
            {"ORGMEMORY_LLM_URL": "http://x", "ORGMEMORY_LLM_MODEL": "m", "ORGMEMORY_LLM_TIMEOUT": "soon"}
        )

        assert llm.timeout == 20.0
