package io.hdfl.sensors.signal;

import java.time.Instant;
import java.util.Arrays;
import java.util.Objects;

/**
 * A simulated CNC drilling machine in the shape of the FedHDPrivacy case study: 90 channels at 500 Hz,
 * 15 drive signals ({@code load, current, torque, power, cmd_speed, act_speed, ctrl_diff, contour_dev,
 * cmd_pos, enc_pos, vel_ff, torque_ff, cmd_accel, motor_temp, vibration}) on each of the axes X, Y, Z
 * (linear, mm), B, C (tilt and rotary table, deg) and the spindle S, named {@code X.load}, …,
 * {@code S.vibration} (axis-major order), with units.
 *
 * <p>It drills holes in a repeating 8 × 6 pattern, one cycle per hole (about 1.4 s): position X/Y/B/C along smooth profiles while the spindle changes speed, feed Z down,
 * dwell, retract. Feed-forward signals follow the commanded motion; spindle torque, current and power
 * and the Z thrust rise with feed per revolution, material hardness and tool wear (which grows over a
 * tool's life and resets at each tool change); following errors grow with speed and load; motor
 * temperatures follow copper losses; every measured channel has Gaussian sensor noise.
 *
 * <p>Each cycle has a quality class, carried as the label of all its samples: 0 nominal,
 * 1 under-drilling, 2 over-drilling. A class shifts the conditions the hole is drilled under, with
 * overlapping spreads (mean ± s.d.; hardness relative to the machine's material, feed and speed to its
 * program):
 * <pre>
 *   class                 depth (mm)          hardness     feed          spindle speed
 *   0 nominal             6 ± 0.08            1.00 ± .07   1.00 ± .035   1.00 ± .015
 *   1 under-drilling      6 − (0.3 .. 0.8)    1.18 ± .07   0.93 ± .035   0.94 ± .015
 *   2 over-drilling       6 + (0.3 .. 0.8)    0.85 ± .07   1.07 ± .035   1.06 ± .015
 * </pre>
 * so short windows are clearly but not perfectly separable: a nearest-centroid classifier on z-scored
 * 10-sample windows (900 features) gets about 83–85 % of later cycles right. The {@code machine} index
 * (with the seed: a fleet shares a seed) gives each machine its own sensor gains and offsets, noise
 * level, ambient temperature, material, tool life, fixture position, program and class mix, so peers
 * are non-IID.
 *
 * <p>Deterministic: the same seed and machine give a bit-identical stream on any JDK (own SplitMix64
 * generator, {@link StrictMath}). The clock is simulated: sample {@code i} is stamped
 * {@code start + round(i · 10⁹ / rate)} ns, and samples come as fast as they are pulled unless a
 * {@link Pacing} is set.
 */
public final class SyntheticMachiningSource extends PacedSource {

  /** Quality class of a correctly drilled hole. */
  public static final int NOMINAL = 0;
  /** Quality class of a hole drilled too shallow. */
  public static final int UNDER_DRILLING = 1;
  /** Quality class of a hole drilled too deep. */
  public static final int OVER_DRILLING = 2;
  /** Number of quality classes. */
  public static final int CLASSES = 3;

  private final long seed;
  private final int machine;
  private final long maxCycles;
  private final long startNanos;
  private final double periodNanos;
  private final double dt;
  private final MachineProfile profile;
  private final SeededRandom cycles;
  private final SeededRandom noise;
  private final DriveModel drives;
  private final double[] pos = new double[6];
  private final double[] vel = new double[6];
  private final double[] acc = new double[6];
  private final double[] raw = new double[MachiningChannels.COUNT];
  private DrillingCycle cycle;
  private double[] cycleEnd;
  private long cycleIndex;
  private long cycleStartSample;
  private long sample;
  private double spindleAngle;

  private SyntheticMachiningSource(Builder b) {
    super("synthetic machining (seed " + b.seed + ", machine " + b.machine + ")", MachiningChannels.channels(),
        b.sampleRateHz, b.pacing, b.clock);
    this.seed = b.seed;
    this.machine = b.machine;
    this.maxCycles = b.cycles;
    this.startNanos = b.startNanos;
    this.periodNanos = 1e9 / b.sampleRateHz;
    this.dt = 1 / b.sampleRateHz;
    this.profile = new MachineProfile(b.seed, b.machine, b.classWeights);
    this.cycles = SeededRandom.of(b.seed, 0xC1C1E000L + b.machine);
    this.noise = SeededRandom.of(b.seed, 0x401CE000L + b.machine);
    this.drives = new DriveModel(profile.ambientC);
    double[] home = DrillingCycle.holePosition(profile, 0);
    this.cycleEnd = new double[] {home[0], home[1], home[2], home[3], profile.spindleRpm};
  }

  /** A builder; defaults: seed 1, machine 0, 500 Hz, endless, as fast as possible, start 2024-01-01T00:00Z. */
  public static Builder builder() {
    return new Builder();
  }

  /** The seed. */
  public long seed() {
    return seed;
  }

  /** The machine index. */
  public int machine() {
    return machine;
  }

  /** This machine's probabilities of the classes 0, 1, 2 (they sum to 1). */
  public double[] classWeights() {
    return profile.classWeights.clone();
  }

  /** Drilling cycles started so far. */
  public long cyclesStarted() {
    return cycleIndex;
  }

  @Override
  Sample read() {
    double t = (sample - cycleStartSample) * dt;
    if (cycle == null || t >= cycle.duration) {
      if (cycleIndex >= maxCycles) {
        return null;
      }
      cycle = new DrillingCycle(profile, cycleIndex++, cycles, cycleEnd);
      cycleEnd = cycle.end();
      cycleStartSample = sample;
      t = 0;
    }
    cycle.evaluate(t, pos, vel, acc);
    double rpm = vel[5];
    double w = cycle.wear;
    double cutTorque = 0;
    double thrust = 0;
    double engage = Math.min(1, Math.max(0, -pos[2] / 0.6));
    if (vel[2] < -1e-9 && engage > 0) {
      double feedPerRev = -vel[2] * 60 / rpm;
      cutTorque = 44 * cycle.hardness * StrictMath.pow(feedPerRev, 0.8) * (1 + 0.5 * w) * engage;
      thrust = 5400 * cycle.hardness * StrictMath.pow(feedPerRev, 0.9) * (1 + 0.8 * w) * engage;
    } else if (cycle.dwelling(t)) {
      cutTorque = 0.4 * (1 + w) * cycle.hardness;
      thrust = 40 * cycle.hardness;
    }
    double angle = Math.toRadians(spindleAngle);
    double[] load = {0.05 * thrust * StrictMath.sin(angle), 0.05 * thrust * StrictMath.cos(angle), -thrust,
        0.02 * thrust, cutTorque, cutTorque};
    for (int a = 0; a < 6; a++) {
      double motion = a == 5 ? 0.4 + 1e-4 * rpm : 0.2 + 0.002 * Math.abs(vel[a]);
      double process = a == 5 ? 0.25 * cutTorque * (1 + 1.5 * w) : 0.0005 * Math.abs(load[a]) * (1 + w);
      double p = a == 5 ? spindleAngle : pos[a];
      drives.signals(a, p, vel[a], acc[a], load[a], motion + process, dt, raw, a * MachiningChannels.SIGNALS);
    }
    float[] values = new float[MachiningChannels.COUNT];
    for (int c = 0; c < values.length; c++) {
      double v = profile.gain[c] * raw[c] + profile.offset[c];
      if (profile.noise[c] > 0) {
        v += profile.noise[c] * noise.nextGaussian();
      }
      values[c] = (float) (c % MachiningChannels.SIGNALS == MachiningChannels.VIBRATION ? Math.abs(v) : v);
    }
    spindleAngle = (spindleAngle + rpm * 6 * dt) % 360;
    long timestamp = startNanos + (long) Math.floor(sample * periodNanos + 0.5);
    sample++;
    return Sample.adopt(timestamp, values, cycle.label);
  }

  @Override
  void release() {}

  /** Options for a {@link SyntheticMachiningSource}. */
  public static final class Builder {
    private long seed = 1;
    private int machine;
    private double sampleRateHz = 500;
    private long cycles = Long.MAX_VALUE;
    private long startNanos = Instant.parse("2024-01-01T00:00:00Z").getEpochSecond() * 1_000_000_000L;
    private double[] classWeights;
    private Pacing pacing = Pacing.AS_FAST_AS_POSSIBLE;
    private Pacer.Clock clock = Pacer.SYSTEM;

    private Builder() {}

    /** Seed of every random draw (default 1). */
    public Builder seed(long seed) {
      this.seed = seed;
      return this;
    }

    /** Machine index ≥ 0 (default 0): selects the machine's gains, offsets, program and class mix. */
    public Builder machine(int machine) {
      if (machine < 0) {
        throw new IllegalArgumentException("machine index must be ≥ 0, got " + machine);
      }
      this.machine = machine;
      return this;
    }

    /** Sample rate, 50 Hz to 100 kHz (default 500). */
    public Builder sampleRateHz(double hz) {
      if (!(hz >= 50 && hz <= 100_000)) {
        throw new IllegalArgumentException("synthetic sample rate must be 50..100000 Hz, got " + hz);
      }
      this.sampleRateHz = hz;
      return this;
    }

    /** Ends the stream after this many drilling cycles (default endless). */
    public Builder cycles(long cycles) {
      if (cycles < 1) {
        throw new IllegalArgumentException("cycles must be ≥ 1, got " + cycles);
      }
      this.cycles = cycles;
      return this;
    }

    /** Timestamp of the first sample (default 2024-01-01T00:00:00Z). */
    public Builder start(Instant start) {
      this.startNanos = Math.addExact(Math.multiplyExact(start.getEpochSecond(), 1_000_000_000L), start.getNano());
      return this;
    }

    /**
     * Overrides the machine's class mix: relative weights of classes 0, 1, 2 (≥ 0, not all 0).
     */
    public Builder classWeights(double... weights) {
      Objects.requireNonNull(weights, "weights");
      double sum = 0;
      for (double w : weights) {
        if (!(w >= 0) || !Double.isFinite(w)) {
          throw new IllegalArgumentException("class weights must be finite and ≥ 0: " + Arrays.toString(weights));
        }
        sum += w;
      }
      if (weights.length != CLASSES || !(sum > 0)) {
        throw new IllegalArgumentException("need 3 class weights, not all 0: " + Arrays.toString(weights));
      }
      this.classWeights = weights.clone();
      return this;
    }

    /** Delivery speed (default as fast as possible). */
    public Builder pacing(Pacing pacing) {
      this.pacing = Objects.requireNonNull(pacing, "pacing");
      return this;
    }

    Builder clock(Pacer.Clock clock) {
      this.clock = clock;
      return this;
    }

    /** A source with these options. */
    public SyntheticMachiningSource build() {
      return new SyntheticMachiningSource(this);
    }
  }
}
