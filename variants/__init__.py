"""The shipped variant specs, read as package data through importlib.resources."""
