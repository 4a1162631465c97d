package io.hdfl.cli;

import io.hdfl.security.FederationKey;
import io.hdfl.security.Roster;
import io.hdfl.security.SignedRoster;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code hdfl roster keygen|sign|show}: a roster signed by the federation's key. */
@Command(name = "roster", mixinStandardHelpOptions = true,
    description = "Sign the federation's roster with its key; devices that pin the key's public half "
        + "(roster.federation.key) admit the signed members.",
    subcommands = {RosterCommand.Keygen.class, RosterCommand.Sign.class, RosterCommand.Show.class})
final class RosterCommand implements Runnable {
  @Spec CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  /** {@code FILE.pub} for {@code FILE.key}, else {@code FILE.pub} appended. */
  static Path publicFileOf(Path privateFile) {
    String name = privateFile.getFileName().toString();
    String base = name.endsWith(".key") ? name.substring(0, name.length() - 4) : name;
    return privateFile.resolveSibling(base + ".pub");
  }

  @Command(name = "keygen", mixinStandardHelpOptions = true,
      description = "Create the federation's Ed25519 key: FILE (private, owner-only; keep it off the devices) and "
          + "its public half FILE.pub (for FILE.key: FILE.pub replaces .key), which every device pins.")
  static final class Keygen implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Option(names = "--out", required = true, paramLabel = "FILE", description = "The private key file to create.")
    Path out;

    @Override
    public Integer call() throws Exception {
      Path pub = publicFileOf(out);
      FederationKey.generate().save(out, pub);
      spec.commandLine().getOut().printf("federation key: %s (private: keep it safe, off the devices); public key: %s "
          + "(set roster.federation.key to it on every device)%n", out, pub);
      return 0;
    }
  }

  @Command(name = "sign", mixinStandardHelpOptions = true,
      description = "Sign a roster: every peer whose <id>.pub and <id>.kx.pub are in the SOURCE directories (or "
          + "given as <id>.pub files); ids in a SOURCE directory's 'revoked' file and --revoke are "
          + "listed as revoked.")
  static final class Sign implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Option(names = "--key", required = true, paramLabel = "FILE", description = "The federation's private key.")
    Path key;

    @Option(names = "--federation", required = true, paramLabel = "ID", description = "The federation id.")
    String federation;

    @Option(names = "--version", paramLabel = "N",
        description = "Roster version; devices refuse an older one than they accepted (default: the issue time "
            + "in seconds since 1970, which grows with every roster signed).")
    Long version;

    @Option(names = "--revoke", paramLabel = "ID", description = "A peer id to list as revoked (repeatable).")
    List<String> revoke = new ArrayList<>();

    @Option(names = "--out", required = true, paramLabel = "FILE", description = "The signed roster to write "
        + "(devices read roster.dir/roster.signed unless roster.signed names another file).")
    Path out;

    @Parameters(arity = "1..*", paramLabel = "SOURCE", description = "Directory of <id>.pub + <id>.kx.pub files, "
        + "or an <id>.pub file.")
    List<Path> sources;

    @Override
    public Integer call() throws Exception {
      FederationKey k = FederationKey.load(key);
      List<SignedRoster.Member> members = new ArrayList<>();
      TreeSet<String> revoked = new TreeSet<>(revoke);
      for (Path source : sources) {
        members.addAll(SignedRoster.readMembers(source));
        if (Files.isDirectory(source) && Files.isRegularFile(source.resolve(Roster.REVOKED_FILE))) {
          revoked.addAll(Roster.open(source).revoked());
        }
      }
      Instant issued = Instant.now();
      long v = version != null ? version : issued.getEpochSecond();
      byte[] doc = SignedRoster.sign(federation, v, issued, members, revoked, k);
      io.hdfl.io.AtomicFile.write(out, o -> o.write(doc));
      spec.commandLine().getOut().printf("signed roster %s: federation %s, version %d, %d members, %d revoked%n", out,
          federation, v, members.size(), revoked.size());
      return 0;
    }
  }

  @Command(name = "show", mixinStandardHelpOptions = true,
      description = "Check a signed roster against the federation's public key and print it.",
      footer = {"", "Exit codes: 0 valid, 2 not signed by the key, malformed or unreadable."})
  static final class Show implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Parameters(paramLabel = "FILE", description = "The signed roster.")
    Path file;

    @Option(names = "--key", required = true, paramLabel = "FILE", description = "The federation's public key.")
    Path key;

    @Option(names = "--json", description = "Print one JSON object.")
    boolean json;

    @Override
    public Integer call() throws Exception {
      SignedRoster r = SignedRoster.read(file, FederationKey.readPublic(key));
      PrintWriter out = spec.commandLine().getOut();
      if (json) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("file", file.toString());
        m.put("federation", r.federation());
        m.put("version", r.version());
        m.put("issued", r.issued().toString());
        m.put("members", new ArrayList<>(r.members().keySet()));
        m.put("revoked", new ArrayList<>(r.revoked()));
        m.put("sha256", r.sha256());
        JsonOutput.print(out, m);
        return 0;
      }
      out.printf("roster %s: signed by the federation key %s%n", file, key);
      out.printf("  federation %s, version %d, issued %s%n", r.federation(), r.version(), r.issued());
      for (SignedRoster.Member m : r.members().values()) {
        out.println(("  member  " + m.id() + (r.revoked().contains(m.id()) ? "  (revoked)" : "")));
      }
      for (String id : r.revoked()) {
        if (!r.members().containsKey(id)) {
          out.printf("  revoked %s%n", id);
        }
      }
      out.printf("  sha256  %s%n", r.sha256());
      return 0;
    }
  }
}
