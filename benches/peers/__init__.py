"""Pure-Python peers of the Rust core's stress step: what a Python developer
would write instead of our core (numpy + scipy cKDTree, numba uniform grid).

Both peers implement the standard stress workload of
``artificer.sim.scene`` (read its docstring for the rules and the frame
order), start from a :class:`artificer.sim.scene.Scene`, and expose
``step() -> int`` (hits in that frame) plus their current state as
attributes: ``enemy_x``, ``enemy_y``, ``proj_x``, ``proj_y``, ``proj_vx``,
``proj_vy`` (float32), ``pierce`` (int32), ``enemy_hits`` (int64 hits taken per
enemy) and ``frame`` (frames stepped).

Arithmetic convention (shared with the core, which runs on f32): state is
float32 and each formula is evaluated in float32, in this form::

    projectile:  x = x + vx, then bounce (x = -x or x = 8000 - x, vx = -vx)
    hit:         dx = ex - px; dy = ey - py; d2 = dx*dx + dy*dy; hit iff d2 < 144
    chase:       dx = 2000 - ex; dy = 2000 - ey; d = sqrt(dx*dx + dy*dy);
                 if d >= 1e-6: c = 1.5 / d; chase = (dx*c, dy*c)
    separation:  dx = xi - xj; dy = yi - yj; d2 = dx*dx + dy*dy;
                 if 0 < d2 < 256: d = sqrt(d2); f = 0.25*(16 - d)/d;
                 i gets +(f*dx, f*dy), j gets -(f*dx, f*dy)
    enemy:       x = x + (chase_x + float32(sum of separation x))

where each enemy's separation pushes (float32 values) are summed in
float64 and rounded to float32 once. A float64 sum of a few float32 terms
is exact unless their magnitudes differ by more than ~2^29, so the result
does not depend on the order in which pairs are visited: the peers (and the
brute-force reference of tests/sim/test_peers.py) agree bit for bit over
hundreds of frames. Summing in float32 instead makes the last bit depend on
the visiting order, and a packed crowd is chaotic enough to blow such
differences up to whole enemies' widths within ~100 frames (hit counts stay
statistically the same).
"""
