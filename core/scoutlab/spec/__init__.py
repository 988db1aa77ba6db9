"""The spec layer: variant files in YAML, resolved through `extends`, validated, and located to file and line.

The names here are the spec layer's public API (docs/api.md); `variant` does the work,
`source` reads YAML keeping line numbers, `diff` compares two specs knob by knob.
"""

from scoutlab.base.errors import Problem, SpecError
from scoutlab.spec.variant import (
    Spec,
    load_spec,
    load_spec_text,
    shipped_variants,
    validate_paths,
    variant_schema,
)

__all__ = ["Problem", "Spec", "SpecError", "load_spec", "load_spec_text", "shipped_variants", "validate_paths", "variant_schema"]
