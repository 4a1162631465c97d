package io.hdfl.federation;

import io.hdfl.transport.TopicFilter;

/**
 * What a {@link FaultyTransport} does to the deliveries it sees on topics matching {@link #topics()}:
 * each such delivery is, with its own probability, dropped, corrupted (bit flips, truncation or
 * garbage), duplicated, delayed by {@code delayMin..delayMax} ms, or held back and released after the
 * next delivery (reordered); the first {@link #dropFirst()} are dropped outright, and the {@link
 * #killAt()}-th (from 1; 0: never) kills the client as it arrives. Every decision comes
 * from a random stream seeded with {@link #seed()} and the client id, so a failing run names the seed
 * that replays its faults (the same deliveries in the same order get the same faults).
 */
record DeliveryFaults(
    long seed,
    String topics,
    int dropFirst,
    int killAt,
    double drop,
    double corrupt,
    double duplicate,
    double delay,
    int delayMinMillis,
    int delayMaxMillis,
    double reorder,
    int reorderHoldMillis) {

  DeliveryFaults {
    TopicFilter.checkFilter(topics);
    for (double p : new double[] {drop, corrupt, duplicate, delay, reorder}) {
      if (!(p >= 0 && p <= 1)) {
        throw new IllegalArgumentException("a fault probability must be in [0, 1], got " + p);
      }
    }
    if (dropFirst < 0 || killAt < 0 || delayMinMillis < 0 || delayMaxMillis < delayMinMillis || reorderHoldMillis < 0) {
      throw new IllegalArgumentException("bad fault plan " + dropFirst + "/" + delayMinMillis + ".." + delayMaxMillis
          + "/" + reorderHoldMillis);
    }
  }

  /** No faults yet, on every topic; add them with the {@code with…} methods. */
  static DeliveryFaults seeded(long seed) {
    return new DeliveryFaults(seed, "#", 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
  }

  /** Only deliveries on topics matching the MQTT filter {@code filter} get faults. */
  DeliveryFaults on(String filter) {
    return new DeliveryFaults(seed, filter, dropFirst, killAt, drop, corrupt, duplicate, delay, delayMinMillis, delayMaxMillis,
        reorder, reorderHoldMillis);
  }

  /** The first {@code n} matching deliveries are lost (a peer asleep, rebooting, out of range). */
  DeliveryFaults droppingFirst(int n) {
    return new DeliveryFaults(seed, topics, n, killAt, drop, corrupt, duplicate, delay, delayMinMillis, delayMaxMillis, reorder,
        reorderHoldMillis);
  }

  /** The {@code n}-th matching delivery never arrives: the client dies as it comes in ({@link FaultyTransport#kill()}). */
  DeliveryFaults killingAt(int n) {
    return new DeliveryFaults(seed, topics, dropFirst, n, drop, corrupt, duplicate, delay, delayMinMillis, delayMaxMillis,
        reorder, reorderHoldMillis);
  }

  DeliveryFaults dropping(double p) {
    return new DeliveryFaults(seed, topics, dropFirst, killAt, p, corrupt, duplicate, delay, delayMinMillis, delayMaxMillis,
        reorder, reorderHoldMillis);
  }

  /** A corrupted delivery has a few bits flipped, is cut short, or is replaced by random bytes. */
  DeliveryFaults corrupting(double p) {
    return new DeliveryFaults(seed, topics, dropFirst, killAt, drop, p, duplicate, delay, delayMinMillis, delayMaxMillis,
        reorder, reorderHoldMillis);
  }

  DeliveryFaults duplicating(double p) {
    return new DeliveryFaults(seed, topics, dropFirst, killAt, drop, corrupt, p, delay, delayMinMillis, delayMaxMillis, reorder,
        reorderHoldMillis);
  }

  DeliveryFaults delaying(double p, int minMillis, int maxMillis) {
    return new DeliveryFaults(seed, topics, dropFirst, killAt, drop, corrupt, duplicate, p, minMillis, maxMillis, reorder,
        reorderHoldMillis);
  }

  /** A reordered delivery is held until the next one was handed over, or at most {@code holdMillis}. */
  DeliveryFaults reordering(double p, int holdMillis) {
    return new DeliveryFaults(seed, topics, dropFirst, killAt, drop, corrupt, duplicate, delay, delayMinMillis, delayMaxMillis,
        p, holdMillis);
  }

  /** The same faults on another seed. */
  DeliveryFaults reseeded(long s) {
    return new DeliveryFaults(s, topics, dropFirst, killAt, drop, corrupt, duplicate, delay, delayMinMillis, delayMaxMillis,
        reorder, reorderHoldMillis);
  }
}
