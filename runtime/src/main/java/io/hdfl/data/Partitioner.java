package io.hdfl.data;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Deals the samples of a data set out to {@code K} simulated clients, seeded and reproducible.
 * Every client receives a disjoint, ascending list of sample indices; no client is left empty.
 *
 * <h2>IID</h2>
 *
 * The indices {@code 0..n-1} are shuffled and cut into {@code K} consecutive shares. Balanced:
 * every share has {@code floor(n / K)} samples and the remaining {@code n mod K} are dropped.
 * Unbalanced: all samples are used and the first {@code n mod K} clients get one extra.
 *
 * <h2>Non-IID (the PrivateDFL rule)</h2>
 *
 * Let {@code C} be the number of classes that have samples. Each client gets {@code m =
 * min(C, max(2, ceil(C / K)))} classes ({@link #classesPerClient}). A seeded permutation of those
 * classes is laid out cyclically over {@code K * m} slots (slot {@code s} holds class {@code
 * perm[s mod C]}), and client {@code k} takes slots {@code [k*m, (k+1)*m)} — {@code m} consecutive
 * slots of a cycle of length {@code C >= m}, hence {@code m} distinct classes. Since {@code K*m >=
 * C} every class has at least one slot. Each class's samples, shuffled, are split into equal
 * portions, one per slot holding that class, in slot order:
 *
 * <ul>
 *   <li>balanced: every portion has {@code p = min over classes c of floor(n_c / slots_c)}
 *       samples, so every client has exactly {@code m * p} samples, {@code p} of each of its
 *       classes; the rest are dropped. {@code p = 0} is an error.
 *   <li>unbalanced: all samples are used; the portions of one class differ in size by at most one
 *       (the first {@code n_c mod slots_c} slots of class {@code c} get one extra).
 * </ul>
 *
 * <h2>Randomness</h2>
 *
 * One {@code new SplittableRandom(seed)} drives Fisher–Yates shuffles: IID shuffles the indices;
 * non-IID first permutes the classes, then shuffles each class's indices in ascending class order.
 */
public final class Partitioner {
  /** How samples are assigned to clients. */
  public enum Scheme {
    /** Shuffled and cut into equal shares. */
    IID,
    /** Each client sees {@code m} classes (see the class documentation). */
    NON_IID
  }

  private final Scheme scheme;
  private final int clients;
  private final boolean balanced;
  private final long seed;

  private Partitioner(Scheme scheme, int clients, boolean balanced, long seed) {
    if (clients < 1) {
      throw new IllegalArgumentException("number of clients must be >= 1, got " + clients);
    }
    this.scheme = scheme;
    this.clients = clients;
    this.balanced = balanced;
    this.seed = seed;
  }

  /** An IID partitioner into {@code clients} shares. */
  public static Partitioner iid(int clients, boolean balanced, long seed) {
    return new Partitioner(Scheme.IID, clients, balanced, seed);
  }

  /** A non-IID (PrivateDFL) partitioner into {@code clients} shares. */
  public static Partitioner nonIid(int clients, boolean balanced, long seed) {
    return new Partitioner(Scheme.NON_IID, clients, balanced, seed);
  }

  /** A partitioner of the given scheme. */
  public static Partitioner of(Scheme scheme, int clients, boolean balanced, long seed) {
    return new Partitioner(scheme, clients, balanced, seed);
  }

  public Scheme scheme() {
    return scheme;
  }

  public int clients() {
    return clients;
  }

  public boolean balanced() {
    return balanced;
  }

  public long seed() {
    return seed;
  }

  /**
   * Classes per client in the non-IID scheme: {@code min(C, max(2, ceil(C / K)))}.
   *
   * @param numClasses {@code C}, the number of classes that have samples ({@code >= 1})
   * @param clients {@code K} ({@code >= 1})
   */
  public static int classesPerClient(int numClasses, int clients) {
    if (numClasses < 1 || clients < 1) {
      throw new IllegalArgumentException(
          "need >= 1 class and >= 1 client, got " + numClasses + " and " + clients);
    }
    int ceil = (numClasses + clients - 1) / clients;
    return Math.min(numClasses, Math.max(2, ceil));
  }

  /** Partitions {@code data}; see {@link #assign(int[], int)}. */
  public List<int[]> assign(Dataset data) {
    return assign(data.labels(), data.numClasses());
  }

  /** Partitions {@code data} into one {@link Dataset} per client. */
  public List<Dataset> split(Dataset data) {
    List<Dataset> parts = new ArrayList<>(clients);
    for (int[] indices : assign(data)) {
      parts.add(data.subset(indices));
    }
    return parts;
  }

  /**
   * The sample indices of each client ({@code clients()} lists, disjoint, each ascending and
   * non-empty).
   *
   * @param labels class of each sample, in {@code [0, numClasses)}
   * @throws IllegalArgumentException if there are fewer samples than clients, or the requested
   *     partition would leave a client without samples (the message suggests what to change)
   */
  public List<int[]> assign(int[] labels, int numClasses) {
    int n = labels.length;
    if (clients > n) {
      throw new IllegalArgumentException(
          "cannot partition " + n + " samples among " + clients + " clients; use fewer clients");
    }
    for (int i = 0; i < n; i++) {
      if (labels[i] < 0 || labels[i] >= numClasses) {
        throw new IllegalArgumentException(
            "label " + labels[i] + " of sample " + i + " outside [0, " + numClasses + ")");
      }
    }
    SplittableRandom random = new SplittableRandom(seed);
    return scheme == Scheme.IID ? iid(n, random) : nonIid(labels, numClasses, random);
  }

  private List<int[]> iid(int n, SplittableRandom random) {
    int[] perm = Shuffle.permutation(n, random);
    int base = n / clients;
    int extra = balanced ? 0 : n % clients;
    List<int[]> out = new ArrayList<>(clients);
    int start = 0;
    for (int k = 0; k < clients; k++) {
      int size = base + (k < extra ? 1 : 0);
      int[] share = Arrays.copyOfRange(perm, start, start + size);
      Arrays.sort(share);
      out.add(share);
      start += size;
    }
    return out;
  }

  private List<int[]> nonIid(int[] labels, int numClasses, SplittableRandom random) {
    int[][] byClass = Shuffle.indicesByClass(labels, numClasses);
    int[] present = new int[numClasses];
    int nPresent = 0;
    for (int c = 0; c < numClasses; c++) {
      if (byClass[c].length > 0) {
        present[nPresent++] = c;
      }
    }
    int m = classesPerClient(nPresent, clients);
    int[] perm = Shuffle.permutation(nPresent, random);
    int slots = clients * m;
    int[] slotClass = new int[slots];
    int[] slotsPerClass = new int[numClasses];
    for (int s = 0; s < slots; s++) {
      slotClass[s] = present[perm[s % nPresent]];
      slotsPerClass[slotClass[s]]++;
    }
    for (int c = 0; c < numClasses; c++) {
      Shuffle.shuffle(byClass[c], random);
    }

    int p = Integer.MAX_VALUE;
    int worst = -1;
    if (balanced) {
      for (int k = 0; k < nPresent; k++) {
        int c = present[k];
        int portion = byClass[c].length / slotsPerClass[c];
        if (portion < p) {
          p = portion;
          worst = c;
        }
      }
      if (p == 0) {
        throw new IllegalArgumentException(
            "balanced non-IID partition impossible: class "
                + worst
                + " has "
                + byClass[worst].length
                + " samples for "
                + slotsPerClass[worst]
                + " client slots ("
                + clients
                + " clients x "
                + m
                + " classes each); use fewer clients or an unbalanced partition");
      }
    }

    // Slot s gets the r-th portion of its class, r = how many earlier slots hold that class.
    int[] nextPortion = new int[numClasses];
    int[] consumed = new int[numClasses];
    List<int[]> out = new ArrayList<>(clients);
    for (int k = 0; k < clients; k++) {
      int[][] portions = new int[m][];
      int total = 0;
      for (int q = 0; q < m; q++) {
        int c = slotClass[k * m + q];
        int r = nextPortion[c]++;
        int size;
        if (balanced) {
          size = p;
        } else {
          int nc = byClass[c].length;
          size = nc / slotsPerClass[c] + (r < nc % slotsPerClass[c] ? 1 : 0);
        }
        portions[q] = Arrays.copyOfRange(byClass[c], consumed[c], consumed[c] + size);
        consumed[c] += size;
        total += size;
      }
      if (total == 0) {
        throw new IllegalArgumentException(
            "non-IID partition leaves client "
                + k
                + " without samples: its classes have fewer samples than client slots;"
                + " use fewer clients");
      }
      int[] share = new int[total];
      int at = 0;
      for (int[] portion : portions) {
        System.arraycopy(portion, 0, share, at, portion.length);
        at += portion.length;
      }
      Arrays.sort(share);
      out.add(share);
    }
    return out;
  }
}
