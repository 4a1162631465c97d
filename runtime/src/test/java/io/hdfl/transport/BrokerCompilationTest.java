package io.hdfl.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class BrokerCompilationTest {
  @Test
  void aStartedEmbeddedBrokerLeavesNettyAndMoquetteToC1() throws Exception {
    // another test may have started the first broker already: the outcome is the JVM's, once
    SharedEmbeddedBroker.uri();
    assertEquals("added", BrokerCompilation.outcome(), "outcome of the first broker start");
    String directives = BrokerCompilation.diagnosticCommand("compilerDirectivesPrint");
    int netty = directives.indexOf("io/netty/*.*");
    int moquette = directives.indexOf("io/moquette/*.*");
    assertTrue(netty >= 0 && moquette >= 0, directives);
    // the JVM prints each directive: "matching: PATTERNS", then a block for c1 and one for c2
    String ours = directives.substring(Math.min(netty, moquette));
    int end = ours.indexOf("Directive:");
    ours = end < 0 ? ours : ours.substring(0, end);
    String c2 = ours.substring(ours.indexOf("c2 directives:"));
    assertTrue(c2.contains(" Exclude:true "), c2);
    String c1 = ours.substring(ours.indexOf("c1 directives:"), ours.indexOf("c2 directives:"));
    assertTrue(c1.contains(" Exclude:false "), c1);
  }

  @Test
  void addingItAgainDoesNothing() {
    String first = BrokerCompilation.keepOffC2();
    assertEquals(first, BrokerCompilation.keepOffC2());
  }
}
