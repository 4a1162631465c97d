package io.hdfl.sensors.energy;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The device profiles hdfl ships, and custom ones.
 *
 * <p>All figures are approximate: they set the scale of an ESTIMATED figure, they are not a
 * measurement. Power is at the board's supply input. Where a device can be measured
 * ({@link EnergyMeters#detect}) the measurement is used and the profile only prices the radio.
 * For better estimates measure the device once (USB power meter: idle, then all cores busy) and
 * pass a custom profile.
 *
 * <p>Radio figures are a linear model, incremental radio power ÷ effective application throughput:
 * <ul>
 *   <li>Wi-Fi (the Raspberry Pi's on-board CYW43455, the Jetson developer kit's M.2 card): about
 *       0.8 W extra while transmitting and 0.6 W while receiving at about 5 MB/s (40 Mbit/s)
 *       effective, so 1.6e-7 J per byte sent and 1.2e-7 J per byte received;
 *   <li>wired gigabit Ethernet: about 1 W at 125 MB/s, so 8e-9 J per byte either way.
 * </ul>
 * Small, sparse messages cost more per byte than this (radio wake-up and tail energy), so the
 * radio estimate is a lower bound for chatty traffic.
 */
public final class DeviceProfiles {

  private static final String WIFI = " Radio: on-board Wi-Fi, 0.8 W / 0.6 W extra at ~5 MB/s"
      + " (see DeviceProfiles).";

  /**
   * Raspberry Pi 4 Model B (4× Cortex-A72, 1.5 GHz): about 2.7 W idle and 6.4 W with all four
   * cores busy (stress-ng), as published USB-C input measurements agree; (6.4 − 2.7) / 4 ≈
   * 0.93 W per busy core. Radio: on-board Wi-Fi.
   */
  public static final DeviceProfile RASPBERRY_PI_4 = new DeviceProfile("raspberry-pi-4", 0.93, 2.7, 1.6e-7, 1.2e-7,
      "Pi 4B at the USB-C input: ~2.7 W idle, ~6.4 W with 4 cores busy (published measurements);"
          + " (6.4-2.7)/4 = 0.93 W per busy core." + WIFI);

  /**
   * Raspberry Pi 5 (4× Cortex-A76, 2.4 GHz): published USB-C input measurements range about
   * 2.7–3.3 W idle and 7–9 W with four cores busy; the midpoints 3.0 W and 8.0 W give
   * (8.0 − 3.0) / 4 = 1.25 W per busy core. Radio: on-board Wi-Fi.
   */
  public static final DeviceProfile RASPBERRY_PI_5 = new DeviceProfile("raspberry-pi-5", 1.25, 3.0, 1.6e-7, 1.2e-7,
      "Pi 5 at the USB-C input: ~3.0 W idle, ~8.0 W with 4 cores busy (midpoints of published"
          + " measurements); (8.0-3.0)/4 = 1.25 W per busy core." + WIFI);

  /**
   * Jetson Orin Nano 8 GB developer kit, 15 W mode (6× Cortex-A78AE, 1.5 GHz): about 4.5 W at
   * VDD_IN idle and about 4.5 W more with all six cores busy (tegrastats reports), so 0.75 W per
   * busy core. The kit has an INA3221, so {@link EnergyMeters#detect} measures it; this profile
   * prices the radio and serves when the monitor is not readable. Radio: the kit's M.2 Wi-Fi card.
   */
  public static final DeviceProfile JETSON_ORIN_NANO = new DeviceProfile("jetson-orin-nano", 0.75, 4.5, 1.6e-7, 1.2e-7,
      "Orin Nano 8GB dev kit, 15 W mode: ~4.5 W VDD_IN idle, ~4.5 W more with 6 cores busy"
          + " (tegrastats reports); 4.5/6 = 0.75 W per busy core." + WIFI);

  /**
   * One core's share of a two-socket x86 server (Xeon class): SPECpower_ssj2008 results for such
   * machines put active idle at roughly 1–2 W per core and full load at roughly 4–6 W per core
   * above idle; 2 W idle and 4 W per busy core are used. Radio: wired gigabit Ethernet,
   * 8e-9 J/B. The idle share assumes the process is charged for one core's slice of the machine.
   */
  public static final DeviceProfile X86_SERVER_CORE = new DeviceProfile("x86-server-core", 4.0, 2.0, 8e-9, 8e-9,
      "one core of a 2-socket Xeon server: ~2 W idle share, ~4 W per busy core above idle"
          + " (order of magnitude of SPECpower_ssj2008 results). Radio: wired GbE, ~1 W at 125 MB/s.");

  private static final Map<String, DeviceProfile> SHIPPED = new LinkedHashMap<>();

  static {
    for (DeviceProfile p : List.of(RASPBERRY_PI_4, RASPBERRY_PI_5, JETSON_ORIN_NANO, X86_SERVER_CORE)) {
      SHIPPED.put(p.name(), p);
    }
  }

  private static final Set<String> KEYS = Set.of("name", "base", "active", "idle", "sent", "received");

  private DeviceProfiles() {}

  /**
   * The profile name to assume when none is configured: {@code x86-server-core} on x86-64,
   * {@code raspberry-pi-4} elsewhere (the most common device).
   */
  public static String defaultName() {
    String arch = System.getProperty("os.arch", "");
    return arch.equals("amd64") || arch.equals("x86_64") ? X86_SERVER_CORE.name() : RASPBERRY_PI_4.name();
  }

  /** The shipped profiles, in a fixed order. */
  public static List<DeviceProfile> shipped() {
    return List.copyOf(SHIPPED.values());
  }

  /**
   * A shipped profile by name, or a custom one from {@code key=value} pairs separated by commas:
   * {@code active=W,idle=W,sent=J/B,received=J/B[,name=N]}, or {@code base=<shipped name>} followed
   * by the fields to override, e.g. {@code base=raspberry-pi-4,idle=3.1,name=pi4-with-hat}. A
   * custom profile's name defaults to {@code custom}.
   *
   * @throws IllegalArgumentException with one line naming the problem and the accepted forms
   */
  public static DeviceProfile resolve(String spec) {
    String s = spec == null ? "" : spec.trim();
    if (!s.contains("=")) {
      DeviceProfile p = SHIPPED.get(s.toLowerCase(Locale.ROOT));
      if (p == null) {
        throw new IllegalArgumentException("unknown device profile '" + s + "'; known: " + String.join(", ", SHIPPED.keySet())
            + ", or custom 'active=W,idle=W,sent=J/B,received=J/B[,name=N]' or 'base=NAME,idle=W,...'");
      }
      return p;
    }
    Map<String, String> kv = new LinkedHashMap<>();
    for (String part : s.split(",")) {
      int eq = part.indexOf('=');
      String key = eq < 0 ? part.trim() : part.substring(0, eq).trim().toLowerCase(Locale.ROOT);
      if (eq < 0 || !KEYS.contains(key)) {
        throw new IllegalArgumentException("device profile '" + s + "': bad field '" + part.trim()
            + "'; fields are name, base, active, idle, sent, received");
      }
      if (kv.put(key, part.substring(eq + 1).trim()) != null) {
        throw new IllegalArgumentException("device profile '" + s + "': field '" + key + "' given twice");
      }
    }
    DeviceProfile base = kv.containsKey("base") ? resolve(kv.get("base")) : null;
    if (base == null) {
      for (String required : List.of("active", "idle", "sent", "received")) {
        if (!kv.containsKey(required)) {
          throw new IllegalArgumentException("device profile '" + s + "': missing '" + required
              + "' (give active, idle, sent and received, or a base profile)");
        }
      }
    }
    String name = kv.getOrDefault("name", "custom");
    double active = number(s, kv, "active", base == null ? 0 : base.activeWatts());
    double idle = number(s, kv, "idle", base == null ? 0 : base.idleWatts());
    double sent = number(s, kv, "sent", base == null ? 0 : base.radioJoulesPerByteSent());
    double received = number(s, kv, "received", base == null ? 0 : base.radioJoulesPerByteReceived());
    String source = "custom profile '" + s + "'" + (base == null ? "" : "; other figures from " + base.name());
    return new DeviceProfile(name, active, idle, sent, received, source);
  }

  private static double number(String spec, Map<String, String> kv, String key, double fallback) {
    String v = kv.get(key);
    if (v == null) {
      return fallback;
    }
    try {
      return Double.parseDouble(v);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("device profile '" + spec + "': " + key + " is not a number: '" + v + "'");
    }
  }
}
