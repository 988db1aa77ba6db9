"""The bottom layer: values and errors shared by every other layer; it imports nothing of scoutlab."""
