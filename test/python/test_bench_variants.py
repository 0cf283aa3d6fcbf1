"""utils/bench/schedule_variants.py's variant specs: knob changes and the
discardable attributes (`@ATTR[=V]`) it adds to the op (sweep.with_attr).
String work only: nothing is compiled."""
import os
import sys

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "utils", "bench"))
from schedule_variants import parse_variant  # noqa: E402
from sweep import with_attr, with_schedule  # noqa: E402

SRC = """func.func @f(%x: tensor<4x8xbf16>) -> tensor<4x8xbf16> {
  %0 = hkg.softmax %x axis(1) : tensor<4x8xbf16> -> tensor<4x8xbf16>
  return %0 : tensor<4x8xbf16>
}"""


def test_knobs_and_attributes():
    name, changes, attrs = parse_variant('pk:row_cache=registers,@hkg.row_bf16_cache,@hkg.load_eviction="first"')
    assert name == "pk"
    assert changes == {"row_cache": "registers"}
    assert attrs == ["hkg.row_bf16_cache", 'hkg.load_eviction = "first"']


def test_attributes_join_the_schedule_dictionary():
    src = with_schedule(SRC, {"threads": "64", "online": "0"})
    for a in ("hkg.row_bf16_cache", 'hkg.load_eviction = "first"'):
        src = with_attr(src, a)
    op = [line for line in src.splitlines() if "hkg.softmax" in line][0]
    assert ('{schedule = #hkg.schedule<online = 0, threads = 64>, hkg.row_bf16_cache, '
            'hkg.load_eviction = "first"} : tensor<4x8xbf16>') in op


@pytest.mark.parametrize("bad", ["pk", "pk:", "pk:threads", "pk:=4", "pk:@"])
def test_malformed_variants_are_refused(bad):
    with pytest.raises(SystemExit):
        parse_variant(bad)
