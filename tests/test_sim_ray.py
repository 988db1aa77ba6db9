"""The Ray backend gives the same numbers as the local pool, on a small local Ray instance."""

import json

import pytest

ray = pytest.importorskip("ray")

from scoutlab.cli import main  # noqa: E402
from scoutlab.sim import compare, simulate  # noqa: E402


@pytest.fixture(scope="module")
def local_ray():
    """One local instance for the module: the backend uses a running Ray and leaves it running."""
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
    yield
    ray.shutdown()


def _numbers(report):
    data = report.to_dict()
    for key in ("seconds", "workers", "backend", "description"):
        data.pop(key)
    return data


def test_ray_and_pool_give_identical_numbers(local_ray):
    options = {"games": 30, "seed": 21, "workers": 2, "strong": "greedy", "advantage_games": 10}
    on_ray = simulate("official", backend="ray", **options)
    on_pool = simulate("official", backend="pool", **options)
    assert on_ray.backend == "ray" and on_pool.backend == "pool"
    assert _numbers(on_ray) == _numbers(on_pool)


def test_compare_on_ray_matches_inline(local_ray):
    specs = [("official", None), ("two-player", None)]
    on_ray = compare(specs, games=20, seed=2, workers=2, backend="ray", strong=None)
    inline = compare(specs, games=20, seed=2, workers=1, strong=None)
    assert _numbers(on_ray) == _numbers(inline)


def test_cli_backend_ray(local_ray, tmp_path, capsys):
    out = tmp_path / "ray.json"
    assert main(["simulate", "two-player", "--games", "20", "--backend", "ray", "--workers", "2",
                 "--strong", "none", "--json", str(out)]) == 0
    data = json.loads(out.read_text())
    assert data["backend"] == "ray" and data["variants"][0]["games"] == 20


def test_sweep_on_ray_matches_the_pool(local_ray):
    from scoutlab.sim.sweep import sweep

    options = {"players": 4, "games": 20, "seed": 3, "workers": 2, "metrics": ["scouts", "turns_per_round"]}
    on_ray = sweep("official", ["scout_and_show.chips_per_round=0,2"], backend="ray", **options)
    on_pool = sweep("official", ["scout_and_show.chips_per_round=0,2"], backend="pool", **options)
    assert on_ray.backend == "ray" and _numbers(on_ray) == _numbers(on_pool)
