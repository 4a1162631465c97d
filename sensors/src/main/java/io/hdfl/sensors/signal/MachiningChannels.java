package io.hdfl.sensors.signal;

import java.util.ArrayList;
import java.util.List;

/**
 * The 90 channels of {@link SyntheticMachiningSource}: 15 drive signals on each of 6 axes, axis-major
 * ({@code X.load, X.current, …, X.vibration, Y.load, …, S.vibration}). Axes X, Y, Z are linear (mm),
 * B (tilt) and C (rotary table) rotary (deg), S the spindle (rpm). Each signal has a unit per axis
 * kind, a typical magnitude (scales per-machine calibration offsets) and a sensor noise level.
 */
final class MachiningChannels {

  static final String[] AXES = {"X", "Y", "Z", "B", "C", "S"};
  static final int LINEAR = 0;
  static final int ROTARY = 1;
  static final int SPINDLE = 2;
  static final int[] AXIS_KIND = {LINEAR, LINEAR, LINEAR, ROTARY, ROTARY, SPINDLE};

  static final int LOAD = 0;
  static final int CURRENT = 1;
  static final int TORQUE = 2;
  static final int POWER = 3;
  static final int CMD_SPEED = 4;
  static final int ACT_SPEED = 5;
  static final int CTRL_DIFF = 6;
  static final int CONTOUR_DEV = 7;
  static final int CMD_POS = 8;
  static final int ENC_POS = 9;
  static final int VEL_FF = 10;
  static final int TORQUE_FF = 11;
  static final int CMD_ACCEL = 12;
  static final int MOTOR_TEMP = 13;
  static final int VIBRATION = 14;
  static final int SIGNALS = 15;
  static final int COUNT = SIGNALS * AXES.length;

  /** Signal names, in channel order within an axis. */
  static final String[] NAMES = {"load", "current", "torque", "power", "cmd_speed", "act_speed", "ctrl_diff",
      "contour_dev", "cmd_pos", "enc_pos", "vel_ff", "torque_ff", "cmd_accel", "motor_temp", "vibration"};

  /** Units by signal, then by axis kind (linear, rotary, spindle). */
  private static final String[][] UNITS = {
      {"%", "%", "%"}, {"A", "A", "A"}, {"Nm", "Nm", "Nm"}, {"kW", "kW", "kW"},
      {"mm/min", "deg/min", "rpm"}, {"mm/min", "deg/min", "rpm"}, {"um", "mdeg", "rpm"}, {"um", "mdeg", "mdeg"},
      {"mm", "deg", "deg"}, {"mm", "deg", "deg"}, {"rpm", "rpm", "rpm"}, {"Nm", "Nm", "Nm"},
      {"m/s^2", "deg/s^2", "rpm/s"}, {"degC", "degC", "degC"}, {"mm/s", "mm/s", "mm/s"}};

  /** Sensor noise standard deviation by signal and axis kind, in the channel's unit. */
  private static final double[][] NOISE = {
      {0.4, 0.3, 0.5}, {0.06, 0.04, 0.12}, {0.05, 0.04, 0.12}, {0.005, 0.003, 0.03},
      {0.0, 0.0, 0.0}, {3.0, 2.0, 4.0}, {0.6, 0.5, 1.5}, {0.5, 0.4, 0.5},
      {0.0, 0.0, 0.0}, {0.0005, 0.0005, 0.05}, {0.0, 0.0, 0.0}, {0.0, 0.0, 0.0},
      {0.0, 0.0, 0.0}, {0.05, 0.05, 0.05}, {0.05, 0.03, 0.15}};

  /** Typical magnitude by signal and axis kind; calibration offsets are a few percent of it. */
  private static final double[][] SCALE = {
      {20, 10, 40}, {2, 1, 10}, {2, 1, 8}, {0.1, 0.05, 2},
      {0, 0, 0}, {10, 10, 50}, {5, 5, 20}, {3, 3, 3},
      {0, 0, 0}, {0, 0, 0}, {0, 0, 0}, {0, 0, 0},
      {0, 0, 0}, {10, 10, 10}, {1, 1, 2}};

  private MachiningChannels() {}

  static int index(int axis, int signal) {
    return axis * SIGNALS + signal;
  }

  static List<Channel> channels() {
    List<Channel> list = new ArrayList<>(COUNT);
    for (int a = 0; a < AXES.length; a++) {
      for (int s = 0; s < SIGNALS; s++) {
        list.add(new Channel(AXES[a] + "." + NAMES[s], UNITS[s][AXIS_KIND[a]]));
      }
    }
    return list;
  }

  /** Noise s.d. of channel {@code c}. Commanded values (setpoints) have none. */
  static double noise(int c) {
    return NOISE[c % SIGNALS][AXIS_KIND[c / SIGNALS]];
  }

  /** Typical magnitude of channel {@code c}; 0 for setpoints, which get no calibration offset. */
  static double scale(int c) {
    return SCALE[c % SIGNALS][AXIS_KIND[c / SIGNALS]];
  }
}
