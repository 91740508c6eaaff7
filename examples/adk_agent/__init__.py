from . import agent  # noqa: F401  (ADK's loader finds ``root_agent`` in ``adk_agent.agent``)
