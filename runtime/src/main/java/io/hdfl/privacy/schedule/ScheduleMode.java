package io.hdfl.privacy.schedule;

import java.util.Locale;

/** The noise schedules hdfl can lay out (DESIGN §4). */
public enum ScheduleMode {
  /** PrivateDFL: ring of K peers, incremental noise. */
  PRIVATEDFL("privatedfl", true),
  /** FedHDPrivacy: K clients and a server, incremental noise, δ = 1/samples. */
  FEDHDP("fedhdp", false),
  /** Ring baseline that cannot see prior noise and re-adds the full requirement every step. */
  BLACKBOX("blackbox", true),
  /** Ring without noise. */
  NONE("none", true);

  private final String id;
  private final boolean ring;

  ScheduleMode(String id, boolean ring) {
    this.id = id;
    this.ring = ring;
  }

  /** The CLI and report name. */
  public String id() {
    return id;
  }

  /** Whether the schedule runs on a ring of peers (one row per step) rather than a star (one row per round). */
  public boolean ring() {
    return ring;
  }

  public static ScheduleMode parse(String value) {
    for (ScheduleMode m : values()) {
      if (m.id.equals(value.toLowerCase(Locale.ROOT))) {
        return m;
      }
    }
    throw new IllegalArgumentException("unknown mode '" + value + "' (expected privatedfl, fedhdp, blackbox or none)");
  }
}
