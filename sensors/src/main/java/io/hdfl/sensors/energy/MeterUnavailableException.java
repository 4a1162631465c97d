package io.hdfl.sensors.energy;

/**
 * A meter cannot be opened on this machine. The message is the reason, one line, suitable for a
 * log or for {@link EnergyMeters#detect}'s explanation, e.g. {@code /sys/class/powercap absent}.
 */
public final class MeterUnavailableException extends Exception {

  private static final long serialVersionUID = 1L;

  public MeterUnavailableException(String reason) {
    super(reason);
  }

  public MeterUnavailableException(String reason, Throwable cause) {
    super(reason, cause);
  }

  /** The reason, same as {@link #getMessage()}. */
  public String reason() {
    return getMessage();
  }
}
