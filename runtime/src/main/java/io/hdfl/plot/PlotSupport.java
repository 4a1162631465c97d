package io.hdfl.plot;

/**
 * Whether this Java runtime can draw plots. {@link LinePlot} renders with Java2D (module {@code
 * java.desktop}), which the device image ({@code deploy/build-image}) leaves out: on Debian's JDK it
 * would pull X11, freetype, harfbuzz and lcms2 onto every device for three PNGs. Ask here before
 * touching {@link LinePlot}, whose own class already needs {@code java.awt}.
 */
public final class PlotSupport {
  private PlotSupport() {}

  /** True when module {@code java.desktop} is in the boot layer. */
  public static boolean available() {
    return ModuleLayer.boot().findModule("java.desktop").isPresent();
  }

  /** Why plots are not drawn, for a message; only meaningful when {@link #available()} is false. */
  public static String unavailableReason() {
    return "this Java runtime has no java.desktop module (the device image leaves it out); "
        + "plots need a full JDK or an image built with deploy/build-image --with-plots";
  }
}
