package io.hdfl.federation;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class PeerListTest {
  @Test
  void namesTheFirstTwentySortedAndCountsTheRest() {
    assertEquals("[]", PeerList.of(List.of()));
    assertEquals("[agg, cnc-01]", PeerList.of(List.of("cnc-01", "agg")));
    List<String> many = new ArrayList<>();
    for (int i = 25; i >= 1; i--) {
      many.add(String.format("c-%02d", i));
    }
    assertEquals("[c-01, c-02, c-03, c-04, c-05, c-06, c-07, c-08, c-09, c-10, c-11, c-12, c-13, c-14, c-15, c-16, "
        + "c-17, c-18, c-19, c-20, and 5 more]", PeerList.of(many));
  }
}
