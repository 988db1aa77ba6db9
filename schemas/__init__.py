"""The JSON Schemas of variant specs, positions and game records, read as package data."""
