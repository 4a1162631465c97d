package io.hdfl.sensors.signal;

/**
 * One simulated drilling cycle: position the part (X, Y, tilt B and table C move along smooth
 * profiles, for at least 0.3 s and longer for long moves, while the spindle changes speed), feed Z from
 * 2 mm above the surface down to the hole depth, dwell, retract; about 1.4 s. Its quality class is
 * drawn first and shifts the process conditions the hole is drilled under, with overlapping spreads
 * (mean ± s.d.):
 * <pre>
 *   class                 depth (mm)          hardness     feed          spindle speed
 *   0 nominal             6 ± 0.08            1.00 ± .07   1.00 ± .035   1.00 ± .015
 *   1 under-drilling      6 − (0.3 .. 0.8)    1.18 ± .07   0.93 ± .035   0.94 ± .015
 *   2 over-drilling       6 + (0.3 .. 0.8)    0.85 ± .07   1.07 ± .035   1.06 ± .015
 * </pre>
 * Hardness is relative to the machine's material, feed and speed to its nominal program. Harder
 * material, slower feed and speed (a dull or deflecting tool stopping short) go with under-drilling;
 * softer material, faster feed and speed with over-drilling. The spindle speed, visible in every phase,
 * is the strongest cue; hardness and feed show only while cutting, and tool wear (up to +50 % torque)
 * blurs them.
 */
final class DrillingCycle {

  static final double CLEARANCE_MM = 2.0;
  static final double NOMINAL_DEPTH_MM = 6.0;
  static final double POSITIONING_S = 0.30;
  static final double DWELL_S = 0.10;
  static final double RETRACT_S = 0.15;
  private static final double FEED_RAMP_S = 0.03;
  /** Highest positioning acceleration of X, Y (mm/s²), B, C (deg/s²). */
  private static final double[] MAX_ACCELERATION = {2000, 2000, 1500, 1500};
  private static final double[] HARDNESS = {1.00, 1.18, 0.85};
  private static final double[] FEED = {1.00, 0.93, 1.07};
  private static final double[] SPEED = {1.00, 0.94, 1.06};

  final int label;
  final double hardness;
  final double feedMmPerS;
  final double rpm;
  final double depthMm;
  final double wear;
  final double duration;
  private final double positioningS;
  private final MotionProfile[] positioning = new MotionProfile[4];
  private final MotionProfile spindle;
  private final MotionProfile drill;
  private final MotionProfile retract;

  /**
   * Draws cycle {@code index} of machine {@code m}.
   *
   * @param start where the previous cycle left X, Y, B, C (mm, mm, deg, deg) and the spindle (rpm)
   */
  DrillingCycle(MachineProfile m, long index, SeededRandom r, double[] start) {
    label = m.drawClass(r);
    hardness = m.hardness * r.gaussian(HARDNESS[label], 0.07);
    feedMmPerS = m.feedMmPerS * r.gaussian(FEED[label], 0.035);
    rpm = m.spindleRpm * r.gaussian(SPEED[label], 0.015);
    depthMm = NOMINAL_DEPTH_MM + switch (label) {
      case 0 -> r.gaussian(0, 0.08);
      case 1 -> -r.uniform(0.3, 0.8);
      default -> r.uniform(0.3, 0.8);
    };
    wear = m.wear(index);
    double[] target = holePosition(m, index);
    double positioningS = POSITIONING_S;
    for (int a = 0; a < 4; a++) {
      // A cosine-blended move of D in T peaks at 2πD/T²: stretch T to keep within the axis' acceleration.
      double d = Math.abs(target[a] - start[a]);
      positioningS = Math.max(positioningS, Math.sqrt(2 * Math.PI * d / MAX_ACCELERATION[a]));
    }
    this.positioningS = positioningS;
    for (int a = 0; a < 4; a++) {
      positioning[a] = new MotionProfile(start[a], target[a], positioningS, positioningS / 2);
    }
    spindle = new MotionProfile(start[4], rpm, positioningS, positioningS / 2);
    double travel = CLEARANCE_MM + depthMm;
    drill = new MotionProfile(CLEARANCE_MM, -depthMm, travel / feedMmPerS + FEED_RAMP_S, FEED_RAMP_S);
    retract = new MotionProfile(-depthMm, CLEARANCE_MM, RETRACT_S, RETRACT_S / 3);
    duration = positioningS + drill.duration() + DWELL_S + RETRACT_S;
  }

  /**
   * X, Y, B, C of hole {@code index}: 8 × 6 holes, 15 mm apart in X and 12 mm in Y, visited row by row in
   * a serpentine, the table C turning 7.5° per hole (back and forth on alternate plates) and the tilt B
   * alternating between 0° and 10° from one plate of 48 holes to the next.
   */
  static double[] holePosition(MachineProfile m, long index) {
    int hole = (int) (index % 48);
    boolean odd = (index / 48) % 2 == 1;
    int k = odd ? 47 - hole : hole;
    int row = k / 8;
    int col = row % 2 == 0 ? k % 8 : 7 - k % 8;
    return new double[] {m.originX + 15 * col, m.originY + 12 * row, odd ? 10.0 : 0.0, 7.5 * k};
  }

  /** Where this cycle leaves X, Y, B, C and the spindle speed: the start of the next one. */
  double[] end() {
    return new double[] {positioning[0].to(), positioning[1].to(), positioning[2].to(), positioning[3].to(), rpm};
  }

  /**
   * Commanded motion at {@code t} seconds into the cycle: for axes X, Y, Z, B, C position, velocity
   * and acceleration (mm or deg, per s, per s²); index 5 is the spindle speed (rpm) and its rate (rpm/s)
   * in {@code vel[5]}, {@code acc[5]}.
   */
  void evaluate(double t, double[] pos, double[] vel, double[] acc) {
    double tp = Math.min(t, positioningS);
    for (int a = 0; a < 4; a++) {
      int axis = a < 2 ? a : a + 1;
      pos[axis] = positioning[a].position(tp);
      vel[axis] = positioning[a].velocity(t);
      acc[axis] = positioning[a].acceleration(t);
    }
    vel[5] = spindle.position(tp);
    acc[5] = spindle.velocity(t);
    double td = t - positioningS;
    double tr = td - drill.duration() - DWELL_S;
    MotionProfile z = tr > 0 ? retract : drill;
    double tz = tr > 0 ? tr : td;
    pos[2] = z.position(tz);
    vel[2] = z.velocity(tz);
    acc[2] = z.acceleration(tz);
  }

  /** Whether {@code t} is in the dwell at the bottom of the hole. */
  boolean dwelling(double t) {
    double td = t - positioningS - drill.duration();
    return td >= 0 && td < DWELL_S;
  }
}
