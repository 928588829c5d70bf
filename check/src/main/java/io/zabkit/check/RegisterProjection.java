package io.zabkit.check;

import java.nio.file.Path;

final class RegisterProjection {
  static int run(Path history, Path out) {
    throw new UnsupportedOperationException("register-projection: not yet written");
  }
}
