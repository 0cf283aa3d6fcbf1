// RUN: hkg-opt %s --split-input-file --verify-diagnostics

// expected-error @below {{knob 'vector_width' is set twice}}
func.func @duplicate_knob() attributes {s = #hkg.schedule<vector_width = 4, vector_width = 8>} {
  return
}

// -----

// expected-error @below {{expected an integer or a keyword as the value of knob 'vector_width'}}
func.func @float_value() attributes {s = #hkg.schedule<vector_width = 1.5>} {
  return
}

// -----

// expected-error @below {{expected an integer or a keyword as the value of knob 'tiles'}}
func.func @array_value() attributes {s = #hkg.schedule<tiles = [1, 2]>} {
  return
}

// -----

// expected-error @below {{integer value too large}}
func.func @huge_value() attributes {s = #hkg.schedule<tile_m = 99999999999999999999>} {
  return
}

// -----

// expected-error @below {{expected '='}}
func.func @missing_equal() attributes {s = #hkg.schedule<vector_width 4>} {
  return
}

// -----

// expected-error @below {{expected '>'}}
func.func @missing_greater() attributes {s = #hkg.schedule<vector_width = 4 threads = 64>} {
  return
}

// -----

// expected-error @below {{expected valid keyword or string}}
func.func @missing_knob_name() attributes {s = #hkg.schedule<= 4>} {
  return
}

// -----

// expected-error @below {{unknown chip 'gfx9999'; expected one of: gfx90a, gfx942, gfx950, gfx1100, gfx1151, gfx1201, gfx1250, sm_80, sm_90}}
func.func @unknown_chip() attributes {t = #hkg.target<chip = "gfx9999">} {
  return
}

// -----

// expected-error @below {{expected 'chip'}}
func.func @target_without_chip() attributes {t = #hkg.target<arch = "gfx942">} {
  return
}

// -----

// expected-error @below {{unknown attribute `tuning` in dialect `hkg`}}
func.func @unknown_attribute() attributes {t = #hkg.tuning<x = 1>} {
  return
}
