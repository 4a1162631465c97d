package io.hdfl.sensors.energy;

/** A meter that was working can no longer be read; the message names the meter and the cause. */
public final class EnergyMeterException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  public EnergyMeterException(String message) {
    super(message);
  }

  public EnergyMeterException(String message, Throwable cause) {
    super(message, cause);
  }
}
