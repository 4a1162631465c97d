package io.hdfl.cli;

import io.hdfl.privacy.ledger.KeyDirectory;
import io.hdfl.privacy.ledger.LedgerVerifier;
import io.hdfl.privacy.ledger.ReleaseAudit;
import io.hdfl.privacy.ledger.Verification;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code hdfl ledger verify}. */
@Command(name = "ledger", mixinStandardHelpOptions = true, description = "Check privacy ledgers.",
    subcommands = {LedgerCommand.Verify.class})
final class LedgerCommand implements Runnable {
  @Spec CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  @Command(name = "verify", mixinStandardHelpOptions = true,
      description = "Check a ledger's hash chain, its peers' Ed25519 signatures and that every entry follows its"
          + " noise schedule. Prints one line.",
      footer = {"", "Exit codes: 0 ledger (and every --releases record) valid, 1 ledger or a record invalid (the first"
          + " bad entry is named),"
          + " 2 bad input (unreadable file, missing keys directory)."})
  static final class Verify implements Callable<Integer> {
    static final int INVALID = 1;

    @Spec CommandSpec spec;

    @Parameters(paramLabel = "FILE", description = "Ledger (JSON lines, e.g. ledger.jsonl).")
    Path file;

    @Option(names = "--keys", paramLabel = "DIR",
        description = "Directory of <peer>.pub public keys (default: keys/ beside FILE).")
    Path keys;

    @Option(names = "--json", description = "Print one JSON object.")
    boolean json;

    @Option(names = "--releases", paramLabel = "FILE",
        description = "A star client's record of the updates it sent (its state directory's releases.jsonl), checked"
            + " against FILE, the aggregator's ledger: each must be signed, follow its schedule from a global model the"
            + " ledger holds, and is either in the ledger or reported as not recorded (repeatable).")
    List<Path> releases = new ArrayList<>();

    @Override
    public Integer call() throws Exception {
      if (Files.isDirectory(file)) {
        throw new IllegalArgumentException(file + ": is a directory, not a ledger file");
      }
      if (!Files.exists(file)) {
        throw new NoSuchFileException(file.toString());
      }
      Path keysDir = keys != null ? keys : file.toAbsolutePath().getParent().resolve("keys");
      if (!Files.isDirectory(keysDir)) {
        throw new IllegalArgumentException(keysDir + ": keys directory not found"
            + (keys == null ? " (default: keys/ beside the ledger; use --keys DIR)" : ""));
      }
      KeyDirectory keyDirectory = KeyDirectory.open(keysDir);
      Verification v = new LedgerVerifier(keyDirectory).verify(file);
      List<ReleaseAudit> audits = v.ok() ? ReleaseAudit.checkAll(releases, file, keyDirectory) : List.of();
      boolean ok = v.ok() && audits.stream().allMatch(ReleaseAudit::ok);
      PrintWriter out = spec.commandLine().getOut();
      if (json) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("file", file.toString());
        m.put("ok", ok); // the ledger and every --releases record
        m.put("entries", v.entries());
        m.put("peers", v.peers());
        m.put("federation", v.federation());
        m.put("topology", v.topology() == null ? null : v.topology().wire());
        m.put("schedule", v.schedule() == null ? null : v.schedule().wire());
        m.put("seeded_entries", v.seededEntries());
        m.put("late_updates", v.lateUpdates());
        m.put("late_not_yet_named", v.lateNotYetNamed());
        if (!v.ok()) {
          m.put("line", v.badLine());
          m.put("peer", v.badPeer());
          m.put("check", v.failedCheck().name().toLowerCase(Locale.ROOT));
          m.put("reason", v.reason());
        }
        if (!releases.isEmpty()) {
          m.put("releases", audits.stream().map(Verify::json).toList());
        }
        JsonOutput.print(out, m);
      } else {
        out.println(v.summary());
        audits.forEach(a -> out.println(a.summary()));
        if (!v.ok() && !releases.isEmpty()) {
          out.println("(the --releases records are checked only against a ledger that verifies)");
        }
      }
      return ok ? 0 : INVALID;
    }

    private static Map<String, Object> json(ReleaseAudit a) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("file", a.file().toString());
      m.put("ok", a.ok());
      m.put("peer", a.peer());
      m.put("releases", a.releases());
      m.put("recorded", a.recorded());
      m.put("unrecorded", a.unrecorded().stream().map(e -> {
        Map<String, Object> u = new LinkedHashMap<>();
        u.put("round", e.round());
        u.put("variance_added", e.addedVariance());
        return u;
      }).toList());
      if (!a.ok()) {
        m.put("reason", a.problem());
      }
      return m;
    }
  }
}
