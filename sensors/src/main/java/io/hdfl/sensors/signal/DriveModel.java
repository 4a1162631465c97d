package io.hdfl.sensors.signal;

import static io.hdfl.sensors.signal.MachiningChannels.ACT_SPEED;
import static io.hdfl.sensors.signal.MachiningChannels.CMD_ACCEL;
import static io.hdfl.sensors.signal.MachiningChannels.CMD_POS;
import static io.hdfl.sensors.signal.MachiningChannels.CMD_SPEED;
import static io.hdfl.sensors.signal.MachiningChannels.CONTOUR_DEV;
import static io.hdfl.sensors.signal.MachiningChannels.CTRL_DIFF;
import static io.hdfl.sensors.signal.MachiningChannels.CURRENT;
import static io.hdfl.sensors.signal.MachiningChannels.ENC_POS;
import static io.hdfl.sensors.signal.MachiningChannels.LOAD;
import static io.hdfl.sensors.signal.MachiningChannels.MOTOR_TEMP;
import static io.hdfl.sensors.signal.MachiningChannels.POWER;
import static io.hdfl.sensors.signal.MachiningChannels.TORQUE;
import static io.hdfl.sensors.signal.MachiningChannels.TORQUE_FF;
import static io.hdfl.sensors.signal.MachiningChannels.VEL_FF;
import static io.hdfl.sensors.signal.MachiningChannels.VIBRATION;

/**
 * Servo drive physics of the six axes, turning commanded motion and process loads into the 15
 * noiseless drive signals per axis: motor speed ω from the ball-screw lead or gear ratio; torque
 * feed-forward J·α + b·ω + Coulomb friction (+ gravity on Z); actual torque = feed-forward + process
 * load reflected to the motor; current = torque / k<sub>t</sub>; load = |torque| / rated torque;
 * power = τ·ω + 3·R·I² (copper loss); following error = residual velocity error / K<sub>v</sub> +
 * load / stiffness; motor temperature = ambient + 0.4 K/W × copper loss through a first-order lag (60 s), starting
 * from the program's typical loss so the machine is warm from the first sample.
 */
final class DriveModel {

  private static final int AXES = 6;
  /** Motor revolutions per mm (linear: 1/lead) or per degree of the axis (rotary: gear/360). */
  private static final double[] REV_PER_UNIT = {1 / 10.0, 1 / 10.0, 1 / 5.0, 100 / 360.0, 72 / 360.0, 1 / 360.0};
  private static final double[] INERTIA = {0.004, 0.005, 0.003, 0.002, 0.003, 0.010};
  private static final double[] VISCOUS = {0.002, 0.002, 0.002, 0.002, 0.002, 0.0008};
  private static final double[] COULOMB = {0.40, 0.45, 0.50, 0.30, 0.35, 0.20};
  private static final double[] GRAVITY = {0, 0, 1.2, 0, 0, 0};
  private static final double[] KT = {1.2, 1.2, 1.5, 0.9, 0.9, 0.8};
  private static final double[] RATED = {8, 8, 10, 5, 6, 20};
  private static final double[] OHMS = {0.6, 0.6, 0.5, 0.9, 0.9, 0.15};
  /** Axis compliance: mm (or deg) of following error per N (or N·m at the table). */
  private static final double[] COMPLIANCE = {1e-5, 1e-5, 7e-6, 2e-4, 2e-4, 0};
  /** Mean copper loss (W) of each motor in this drilling program; the thermal state starts there. */
  private static final double[] TYPICAL_LOSS = {0.85, 0.11, 2.9, 0.2, 1.5, 49};
  private static final double KV = 30;
  private static final double FF_RESIDUAL = 0.02;
  private static final double THERMAL_S = 60;
  private static final double KELVIN_PER_WATT = 0.4;

  private final double[] loss = new double[AXES];
  private final double ambient;

  DriveModel(double ambientC) {
    this.ambient = ambientC;
    System.arraycopy(TYPICAL_LOSS, 0, loss, 0, AXES);
  }

  /**
   * Writes the 15 signals of {@code axis} at {@code out[offset..]} and advances its temperature by
   * {@code dt} seconds. For X..C, {@code pos, vel, acc} are in mm or deg (per s, per s²) and
   * {@code load} is the process force (N) or table torque (N·m) on the axis; for the spindle,
   * {@code pos} is its angle (deg), {@code vel} its speed (rpm), {@code acc} in rpm/s and {@code load}
   * the cutting torque (N·m).
   */
  void signals(int axis, double pos, double vel, double acc, double load, double vibration, double dt,
      double[] out, int offset) {
    boolean spindle = axis == AXES - 1;
    double revPerSecond = spindle ? vel / 60 : vel * REV_PER_UNIT[axis];
    double omega = 2 * Math.PI * revPerSecond;
    double alpha = 2 * Math.PI * (spindle ? acc / 60 : acc * REV_PER_UNIT[axis]);
    double ff = INERTIA[axis] * alpha + VISCOUS[axis] * omega + COULOMB[axis] * StrictMath.tanh(revPerSecond * 4)
        + GRAVITY[axis];
    // Reflected to the motor through a 90 % efficient drive: F·lead/2π for a screw, τ/gear for a gearbox.
    double process = spindle ? load
        : axis < 3 ? load / (2 * Math.PI * REV_PER_UNIT[axis]) / 1000 / 0.9 : load / (360 * REV_PER_UNIT[axis]) / 0.9;
    double torque = ff + process;
    double current = torque / KT[axis];
    double copper = 3 * OHMS[axis] * current * current;
    double err = spindle ? 2.0 * load : FF_RESIDUAL * vel / KV + load * COMPLIANCE[axis];
    out[offset + LOAD] = 100 * Math.abs(torque) / RATED[axis];
    out[offset + CURRENT] = current;
    out[offset + TORQUE] = torque;
    out[offset + POWER] = (torque * omega + copper) / 1000;
    out[offset + CMD_SPEED] = spindle ? vel : 60 * vel;
    out[offset + ACT_SPEED] = spindle ? vel - err : 60 * (vel - FF_RESIDUAL * acc / KV);
    out[offset + CTRL_DIFF] = spindle ? err : 1000 * err;
    out[offset + CONTOUR_DEV] = spindle ? 1000 * 0.002 * load : 600 * err;
    out[offset + CMD_POS] = pos;
    out[offset + ENC_POS] = spindle ? (pos - 0.05 * load + 360) % 360 : pos - err;
    out[offset + VEL_FF] = 60 * revPerSecond;
    out[offset + TORQUE_FF] = ff;
    out[offset + CMD_ACCEL] = axis < 3 ? acc / 1000 : acc;
    out[offset + MOTOR_TEMP] = ambient + KELVIN_PER_WATT * loss[axis];
    out[offset + VIBRATION] = vibration;
    loss[axis] += dt / THERMAL_S * (copper - loss[axis]);
  }
}
