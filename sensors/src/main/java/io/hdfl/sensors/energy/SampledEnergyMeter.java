package io.hdfl.sensors.energy;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A meter read in the background at a fixed interval as well as on demand. For a power meter this
 * makes the trapezoid rule integrate between samples at that interval instead of only between the
 * caller's reads; for a counter (RAPL) it guarantees a read within every wrap period. Readings and
 * provenance are the wrapped meter's. A failing background read is logged once and the next
 * {@link #read()} throws the meter's own error. {@link #close()} stops the sampler and closes the
 * wrapped meter. Create with {@link EnergyMeters#sampled}.
 */
public final class SampledEnergyMeter implements EnergyMeter {

  private static final System.Logger LOG = System.getLogger("io.hdfl.sensors.energy");

  private final EnergyMeter meter;
  private final Duration interval;
  private final ScheduledExecutorService sampler;
  private final AtomicLong samples = new AtomicLong();
  private volatile boolean failureLogged;

  SampledEnergyMeter(EnergyMeter meter, Duration interval) {
    this.meter = Objects.requireNonNull(meter, "meter");
    this.interval = Objects.requireNonNull(interval, "interval");
    if (interval.isNegative() || interval.isZero()) {
      throw new IllegalArgumentException("sampling interval must be > 0, got " + interval);
    }
    this.sampler = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "hdfl-energy-sampler-" + meter.name());
      t.setDaemon(true);
      return t;
    });
    long nanos = interval.toNanos();
    sampler.scheduleAtFixedRate(this::sample, 0, nanos, TimeUnit.NANOSECONDS);
  }

  private void sample() {
    try {
      meter.read();
      samples.incrementAndGet();
    } catch (RuntimeException e) {
      if (!failureLogged) {
        failureLogged = true;
        LOG.log(System.Logger.Level.WARNING, "hdfl energy: background sample of " + meter.name() + " failed: "
            + e.getMessage() + " (logged once)");
      }
    }
  }

  /** The wrapped meter. */
  public EnergyMeter meter() {
    return meter;
  }

  public Duration interval() {
    return interval;
  }

  /** Background samples taken so far. */
  public long samples() {
    return samples.get();
  }

  @Override
  public String name() {
    return meter.name();
  }

  @Override
  public Provenance provenance() {
    return meter.provenance();
  }

  @Override
  public EnergyReading read() {
    return meter.read();
  }

  @Override
  public void close() {
    sampler.shutdownNow();
    try {
      sampler.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    meter.close();
  }
}
