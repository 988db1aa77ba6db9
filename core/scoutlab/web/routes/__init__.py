"""The web app's routers, one module each; each route reads the shared state through context.web_context."""
