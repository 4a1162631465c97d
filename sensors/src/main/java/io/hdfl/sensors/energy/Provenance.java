package io.hdfl.sensors.energy;

import java.util.Objects;

/**
 * Where an energy figure comes from: MEASURED by a named meter, or ESTIMATED by a named model.
 *
 * @param kind measured or estimated
 * @param source the meter or model, e.g. {@code rapl:package-0}, {@code cpu-model:raspberry-pi-4},
 *     {@code radio:raspberry-pi-4}; equal sources mean the same counter
 * @param detail one human-readable phrase on what exactly is covered (for reports), may be empty
 */
public record Provenance(Kind kind, String source, String detail) {

  /** Whether a figure was measured by hardware or estimated by a model. */
  public enum Kind {
    MEASURED,
    ESTIMATED
  }

  public Provenance {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(source, "source");
    Objects.requireNonNull(detail, "detail");
    if (source.isBlank()) {
      throw new IllegalArgumentException("provenance source is blank");
    }
  }

  public static Provenance measured(String meter, String detail) {
    return new Provenance(Kind.MEASURED, meter, detail);
  }

  public static Provenance estimated(String model, String detail) {
    return new Provenance(Kind.ESTIMATED, model, detail);
  }

  public boolean isMeasured() {
    return kind == Kind.MEASURED;
  }

  /** {@code MEASURED rapl:package-0} — the label every report prints beside a figure. */
  public String label() {
    return kind + " " + source;
  }

  @Override
  public String toString() {
    return detail.isEmpty() ? label() : label() + " (" + detail + ")";
  }
}
