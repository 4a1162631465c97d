package io.hdfl.privacy.ledger;

import io.hdfl.io.AtomicFile;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The append-only privacy ledger of one model lineage: one signed, hash-chained entry per noise
 * decision ({@link LedgerEntry}, line format in {@link LedgerCodec}). A ledger without a file keeps
 * every entry in memory; one with a file persists them as JSON lines and keeps only its last {@link
 * Builder#keepInMemory} lines in memory (default {@value #DEFAULT_KEPT_LINES}), so that a device's
 * memory does not grow with a long run (a continuous-learning star grows by K + 1 lines a round): what
 * the peers need of the past is the chain's end, and the file holds the rest.
 *
 * <p>Persistence: every {@link #append} appends one line and fsyncs before returning, so an entry
 * that was returned is on disk. A crash during the write can leave a torn last line; opening such a
 * file fails with a {@link LedgerFormatException} naming it, unless the ledger is a device's own, which
 * mends it with a logged repair ({@link Builder#repairingTornLastLine}).
 * {@link #writeTo} instead rewrites a whole file atomically (for ledgers kept in memory, e.g. by a
 * simulation). One process writes a ledger file; appends from several threads are serialized.
 *
 * <p>{@code append} checks what the line format needs (ids, finite numbers, the signer is the
 * entry's peer, the settings) but not the schedule arithmetic: that is {@link LedgerVerifier}'s job,
 * so that a verifier run catches a wrong accountant.
 */
public final class PrivacyLedger {
  /** Lines a ledger with a file keeps in memory unless told otherwise. */
  public static final int DEFAULT_KEPT_LINES = 8192;
  /** Most lines kept in memory for which an opening parses only the last ones (above: the whole file). */
  private static final int MAX_TAIL_KEPT = 1 << 16;

  private final LedgerSettings settings;
  private final Path file;
  private final Clock clock;
  private final int kept;
  /** Whether opening parses every line of the file, not only the last ones (tests compare the two). */
  private boolean readEveryLine;
  /** The last {@link #kept} lines (all of them without a file), oldest first. */
  private final java.util.ArrayDeque<LedgerLine> lines = new java.util.ArrayDeque<>();
  private int size;
  private String lastHash = LedgerEntry.GENESIS_HASH;
  /**
   * Star: the aggregate entries by round, with their hashes (what a client update of a later round
   * chains to), of the aggregates among the lines in memory.
   */
  private final java.util.TreeMap<Integer, Aggregate> aggregates = new java.util.TreeMap<>();
  /** Star: whether an aggregate has left memory (then a round before every kept one has no known target). */
  private boolean aggregatesDropped;

  /** A star aggregate entry and the hash of its line. */
  public record Aggregate(LedgerEntry entry, String hash) {}

  private PrivacyLedger(LedgerSettings settings, Path file, Clock clock, int kept) {
    this.settings = settings;
    this.file = file;
    this.clock = clock;
    this.kept = kept;
  }

  /** A ledger with the given settings; see {@link Builder}. */
  public static Builder builder(LedgerSettings settings) {
    return new Builder(settings);
  }

  /** A ledger kept only in memory (until {@link #writeTo}). */
  public static PrivacyLedger inMemory(LedgerSettings settings) {
    return new PrivacyLedger(settings, null, Clock.systemUTC(), Integer.MAX_VALUE);
  }

  /** Configures and opens a ledger. */
  public static final class Builder {
    private final LedgerSettings settings;
    private Path file;
    private Clock clock = Clock.systemUTC();
    private int kept = DEFAULT_KEPT_LINES;
    private java.util.function.Consumer<String> repairLog;
    private boolean readEveryLine;

    private Builder(LedgerSettings settings) {
      this.settings = Objects.requireNonNull(settings, "settings");
    }

    /** Persist to this file: created if absent, continued (after reading and checking it) if present. */
    public Builder file(Path ledgerFile) {
      this.file = ledgerFile;
      return this;
    }

    /**
     * How many of its last lines a ledger with a file keeps in memory (default {@value
     * #DEFAULT_KEPT_LINES}); a ledger without a file keeps all.
     */
    public Builder keepInMemory(int lines) {
      if (lines < 1) {
        throw new IllegalArgumentException("a ledger keeps at least 1 line in memory, got " + lines);
      }
      this.kept = lines;
      return this;
    }

    /**
     * Mends, before reading, a last line that an append interrupted by a power cut left without its
     * newline (a device's own ledger; any other file with one is refused): a line that is whole but for
     * the newline gets it; anything else is cut off and kept beside the ledger as {@code
     * <name>.torn-<time>}. Safe on a device because each line it appends is in a checkpoint or on the
     * broker (a retained final model) until the append is done, and appended again on resume (README
     * "Crash safety"); the exception, a star's late update appended as it arrives, is in its client's
     * record of releases. What was done is told to {@code log}.
     */
    public Builder repairingTornLastLine(java.util.function.Consumer<String> log) {
      this.repairLog = Objects.requireNonNull(log, "log");
      return this;
    }

    /** Parses every line of the file when opening, as before the twentieth session (tests compare). */
    Builder readingEveryLine() {
      this.readEveryLine = true;
      return this;
    }

    /** Clock for the informational timestamps (default: system UTC). */
    public Builder clock(Clock c) {
      this.clock = Objects.requireNonNull(c, "clock");
      return this;
    }

    /**
     * Opens the ledger. Every line of an existing file must be well formed (printable ASCII, ended by a
     * newline, not too long); the lines kept in memory ({@link #keepInMemory}; all of them if more than
     * 2^20) must parse, chain from the line before them and have these settings. Signatures, and the
     * chain and entries of the lines not kept, are {@link LedgerVerifier}'s to check (so is the chain
     * of a late star update whose aggregate has left memory).
     *
     * @throws IllegalArgumentException (one line naming the file and line) if the file is not such a ledger
     */
    public PrivacyLedger open() throws IOException {
      PrivacyLedger ledger = new PrivacyLedger(settings, file, clock, file == null ? Integer.MAX_VALUE : kept);
      if (file != null && Files.exists(file)) {
        if (repairLog != null) {
          repairTornLastLine(file, clock, repairLog);
        }
        ledger.readEveryLine = readEveryLine;
        ledger.load();
      }
      return ledger;
    }
  }

  private static void repairTornLastLine(Path file, Clock clock, java.util.function.Consumer<String> log)
      throws IOException {
    byte[] tail = io.hdfl.io.AtomicFile.unterminatedTail(file, LedgerReader.MAX_LINE_BYTES);
    if (tail == null || tail.length == 0) {
      return; // intact, or a tail no ledger line could be: left for load to report
    }
    String text = new String(tail, java.nio.charset.StandardCharsets.ISO_8859_1);
    try {
      if (text.chars().allMatch(c -> c >= 0x20 && c <= 0x7e)) {
        LedgerCodec.split(text);
        LedgerCodec.parse(text);
        io.hdfl.io.AtomicFile.append(file, new byte[] {'\n'});
        log.accept(file + ": its last line lacked its newline (an append interrupted by a power cut): completed");
        return;
      }
    } catch (LedgerFormatException notWhole) {
      // cut short: cut off below
    }
    Path kept = file.resolveSibling(file.getFileName() + ".torn-" + java.time.format.DateTimeFormatter
        .ofPattern("uuuuMMdd'T'HHmmss'Z'").withZone(java.time.ZoneOffset.UTC).format(clock.instant()));
    io.hdfl.io.AtomicFile.write(kept, out -> out.write(tail)); // kept before the cut: a crash between loses nothing
    io.hdfl.io.AtomicFile.truncate(file, Files.size(file) - tail.length);
    log.accept(file + ": cut off a last line torn by an interrupted append (" + tail.length + " bytes, kept in "
        + kept.getFileName() + "); the entries it may have held are appended again from the checkpoints as the peer"
        + " resumes (not a star's late update, appended as it arrived: its client's record of releases holds it)");
  }

  /**
   * Reads the file. A ledger keeping its last lines in memory checks the form of every line in one
   * bulk pass ({@link LedgerTail}) and parses only its last 2 × {@link #kept} lines, from the hash of
   * the line before them: each kept line is then checked against what a read of every line would hold
   * in memory when it came to it, and the ledger ends as such a read would leave it. The entries and
   * chain of the older lines, and every signature, are {@link LedgerVerifier}'s to check.
   */
  private void load() throws IOException {
    LedgerTail tail = null;
    if (kept <= MAX_TAIL_KEPT && !readEveryLine) {
      try {
        tail = LedgerTail.scan(file, 2 * kept);
        if (tail.skipped() > 0) {
          try (LedgerReader before = LedgerReader.openAt(file, tail.before(), tail.skipped() - 1)) {
            lastHash = LedgerCodec.hash(before.next());
          }
        }
      } catch (LedgerFormatException ex) {
        throw new IllegalArgumentException(file + ": " + ex.getMessage(), ex);
      }
      size = Math.toIntExact(tail.skipped());
      // as a read of every line: an aggregate has left memory if one is among the lines before
      aggregatesDropped = tail.firstAggregate() >= 0 && tail.firstAggregate() < tail.skipped();
    }
    try (LedgerReader reader = tail != null ? LedgerReader.openAt(file, tail.windowFrom(), tail.skipped())
        : LedgerReader.open(file)) {
      String text;
      while ((text = reader.next()) != null) {
        long n = reader.lineNumber();
        LedgerEntry e;
        try {
          LedgerCodec.split(text);
          e = LedgerCodec.parse(text);
        } catch (LedgerFormatException ex) {
          throw new IllegalArgumentException(file + ": " + ex.atLine(n).getMessage(), ex);
        }
        String target = chainTargetFor(e.kind(), e.round());
        // (a late update chained to an aggregate no longer in memory cannot be checked here: the
        // verifier, which keeps every aggregate's hash, checks it)
        if (target != null && !e.prevHash().equals(target)) {
          throw new IllegalArgumentException(file + ": line " + n + ": prev_hash does not match the entry it must chain to");
        }
        if (!settings.matches(e)) {
          throw new IllegalArgumentException(file + ": line " + n + ": entry's federation, topology, schedule, "
              + "epsilon, delta0 or D differ from this ledger's settings " + settings);
        }
        stored(text, e);
      }
    } catch (LedgerFormatException ex) {
      throw new IllegalArgumentException(file + ": " + ex.getMessage(), ex);
    }
  }

  public LedgerSettings settings() {
    return settings;
  }

  /** The file appends go to, if any. */
  public Optional<Path> file() {
    return Optional.ofNullable(file);
  }

  /** How many entries the ledger holds (in memory and in its file). */
  public synchronized int size() {
    return size;
  }

  /**
   * The entries held in memory, oldest first (a snapshot): all of them for a ledger without a file,
   * the last {@link #keptLines} for one with a file.
   */
  public synchronized List<LedgerLine> lines() {
    return List.copyOf(lines);
  }

  /** How many of its last lines this ledger keeps in memory ({@link Integer#MAX_VALUE}: all). */
  public int keptLines() {
    return kept;
  }

  /** Hash of the last entry's line: the next entry's prev_hash (64 zeros while empty). */
  public synchronized String lastHash() {
    return lastHash;
  }

  /**
   * Appends the entry for {@code record}, chained by this ledger's topology ({@link #chainTargetFor})
   * and signed by {@code signer}, and (with a file) persists it before returning.
   *
   * @throws IllegalArgumentException if the signer is not the record's peer or a value cannot be written
   */
  public synchronized LedgerLine append(PeerKeys signer, NoiseRecord record) throws IOException {
    String target = chainTargetFor(record.kind(), record.round());
    if (target == null) {
      throw new IllegalArgumentException(tooLongAgo(record.round()));
    }
    return appendLine(sign(signer, record, target));
  }

  /**
   * The prev_hash a new entry of {@code kind} must carry now. Ring: the last line (one linear chain).
   * Star: a client {@code update} chains to the last {@code aggregate} line (the global model it
   * trained on; genesis in round 1), since clients of a round cannot see each other's entries; an
   * {@code aggregate} chains to the line before it and names the client lines it averaged.
   */
  public synchronized String chainTargetFor(LedgerEntry.Kind kind) {
    return chainTargetFor(kind, Integer.MAX_VALUE);
  }

  /**
   * The prev_hash an entry of {@code kind} and {@code round} must carry. As {@link
   * #chainTargetFor(LedgerEntry.Kind)}, except that a star client update chains to the last aggregate of
   * a round before its own: the global model it trained on. So an update that reached the aggregator
   * after its round was averaged (late: noised and sent, but in no average) is recorded after that
   * aggregate and still chains to the model it trained on. Null when that aggregate has left memory
   * ({@link Builder#keepInMemory}): this ledger no longer knows it.
   */
  public synchronized String chainTargetFor(LedgerEntry.Kind kind, int round) {
    if (settings.topology() == LedgerEntry.Topology.STAR && kind == LedgerEntry.Kind.UPDATE) {
      var e = aggregates.lowerEntry(round);
      return e != null ? e.getValue().hash() : aggregatesDropped ? null : LedgerEntry.GENESIS_HASH;
    }
    return lastHash;
  }

  /**
   * Star: the last aggregate of a round before {@code round} (empty before the first aggregate, and
   * when it has left memory: see {@link #chainTargetFor(LedgerEntry.Kind, int)}).
   */
  public synchronized Optional<Aggregate> aggregateBefore(int round) {
    var e = aggregates.lowerEntry(round);
    return e == null ? Optional.empty() : Optional.of(e.getValue());
  }

  /** Star: the first round whose aggregate is among the lines in memory (empty if none is). */
  public synchronized java.util.OptionalInt firstAggregateKept() {
    return aggregates.isEmpty() ? java.util.OptionalInt.empty() : java.util.OptionalInt.of(aggregates.firstKey());
  }

  /**
   * Star: why {@code e}, a client update of a round this ledger already aggregated, cannot be recorded
   * here as a late update (one that came after its round was averaged), or null if it can: it has this
   * ledger's settings, its round was aggregated here (recently enough that the round's aggregate and
   * the one before are among the lines in memory), it chains to the model of its round and its
   * numbers start from that model as its schedule says — what {@link LedgerVerifier} checks of it,
   * bar the signature.
   */
  public synchronized String lateUpdateProblem(LedgerEntry e) {
    if (!settings.matches(e)) {
      return "its entry does not match the federation's ledger settings";
    }
    String target = chainTargetFor(LedgerEntry.Kind.UPDATE, e.round());
    if (e.round() >= 1 && aggregatesDropped && (aggregates.isEmpty() || e.round() <= aggregates.firstKey())
        && (target == null || !aggregates.containsKey(e.round()))) {
      return tooLongAgo(e.round());
    }
    if (e.round() < 1 || !aggregates.containsKey(e.round())) {
      return "its round " + e.round() + " was not averaged here";
    }
    if (!e.prevHash().equals(target)) {
      return "its entry does not chain to the global model of round " + e.round();
    }
    return ScheduleConformance.lateUpdate(e, aggregateBefore(e.round()).map(Aggregate::entry).orElse(null));
  }

  /** Why an update of {@code round} is too old to record: the aggregates it needs have left memory. */
  private String tooLongAgo(int round) {
    return "its round " + round + " was averaged too long ago to record (the ledger keeps the aggregates of its"
        + " last " + kept + " lines in memory, and a late update needs its round's and the one before)";
  }

  /** What a line records of {@link NoiseRecord#samplesBundled()}: only a ring update's after round 1. */
  private long writtenBundled(NoiseRecord record) {
    return LedgerEntry.recordsBundled(record.kind(), settings.topology(), record.round()) ? record.samplesBundled() : 0;
  }

  /**
   * A signed line for {@code record} with the given prev_hash, not appended: what a peer sends along
   * with its model so that the receiver (or a run recorder) can {@link #appendLine} it.
   */
  public LedgerLine sign(PeerKeys signer, NoiseRecord record, String prevHash) {
    if (!signer.peerId().equals(record.peer())) {
      throw new IllegalArgumentException("entry of peer '" + record.peer() + "' cannot be signed by '"
          + signer.peerId() + "'");
    }
    var p = settings.params();
    LedgerEntry unsigned = new LedgerEntry(LedgerEntry.FORMAT_VERSION, settings.federation(), record.peer(),
        record.kind(), settings.topology(), record.round(), record.step(), record.samplesNew(),
        record.samplesTotal(), writtenBundled(record), record.sensitivityScale(), record.requiredVariance(), record.presentBefore(),
        record.addedVariance(), record.presentAfter(), p.epsilon(), p.delta0(), p.dim(), settings.schedule(),
        record.source(), record.source() == LedgerEntry.Source.SEEDED, record.contributors(), record.late(),
        record.reason(),
        prevHash, LedgerTimestamp.format(clock.instant()), null);
    String body = LedgerCodec.body(unsigned);
    String sig = signer.sign(LedgerCodec.signedBytes(body));
    String text = LedgerCodec.line(body, sig);
    if (text.length() > LedgerReader.MAX_LINE_BYTES) {
      throw new IllegalArgumentException("entry longer than " + LedgerReader.MAX_LINE_BYTES + " bytes");
    }
    return new LedgerLine(text, unsigned.withSignature(sig));
  }

  /**
   * Appends a line signed elsewhere (a peer's entry received with its model), after checking that it
   * parses, matches this ledger's settings and chains where {@link #chainTargetFor} says. Signatures
   * are checked by {@link LedgerVerifier}, which knows the peers' keys. The line's text is what is
   * checked and stored: its entry is parsed from it again.
   */
  public LedgerLine appendLine(LedgerLine line) throws IOException {
    return appendLine(line.text());
  }

  /** {@link #appendLine(LedgerLine)} for a line's text (parsed once, here). */
  public synchronized LedgerLine appendLine(String text) throws IOException {
    if (size >= LedgerReader.MAX_ENTRIES) {
      throw new IllegalStateException("ledger is full (" + LedgerReader.MAX_ENTRIES + " entries)");
    }
    LedgerEntry e = LedgerCodec.parse(text);
    if (!settings.matches(e)) {
      throw new IllegalArgumentException("entry of peer '" + e.peer() + "' does not match this ledger's settings "
          + settings);
    }
    String expected = chainTargetFor(e.kind(), e.round());
    if (expected == null) {
      throw new IllegalArgumentException("entry of peer '" + e.peer() + "' (round " + e.round() + ", step "
          + e.step() + ") chains to an aggregate this ledger no longer holds in memory");
    }
    if (!e.prevHash().equals(expected)) {
      throw new IllegalArgumentException("entry of peer '" + e.peer() + "' (round " + e.round() + ", step "
          + e.step() + ") does not chain to " + expected);
    }
    if (file != null) {
      AtomicFile.append(file, (text + "\n").getBytes(StandardCharsets.US_ASCII));
    }
    return stored(text, e);
  }

  private LedgerLine stored(String text, LedgerEntry e) {
    LedgerLine stored = new LedgerLine(text, e);
    lines.addLast(stored);
    size++;
    lastHash = LedgerCodec.hash(text);
    if (e.kind() == LedgerEntry.Kind.AGGREGATE) {
      aggregates.put(e.round(), new Aggregate(e, lastHash));
    }
    if (lines.size() > kept) {
      LedgerLine gone = lines.removeFirst(); // still in the file
      if (gone.entry().kind() == LedgerEntry.Kind.AGGREGATE) {
        Aggregate a = aggregates.get(gone.entry().round());
        if (a != null && a.entry() == gone.entry()) {
          aggregates.remove(gone.entry().round());
          aggregatesDropped = true;
        }
      }
    }
    return stored;
  }

  /**
   * Writes all entries to {@code target} atomically (replacing it), one line each.
   *
   * @throws IllegalStateException if some entries are only in this ledger's file (copy the file instead)
   */
  public synchronized void writeTo(Path target) throws IOException {
    if (size != lines.size()) {
      throw new IllegalStateException("this ledger keeps only its last " + kept + " lines in memory: " + file
          + " holds all " + size);
    }
    List<LedgerLine> snapshot = List.copyOf(lines);
    AtomicFile.write(target, out -> {
      for (LedgerLine l : snapshot) {
        out.write(l.text().getBytes(StandardCharsets.US_ASCII));
        out.write('\n');
      }
    });
  }
}
