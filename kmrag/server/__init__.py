"""The HTTP API (`kmrag serve`): FastAPI routes under /v1, tenant API keys, problem details."""
