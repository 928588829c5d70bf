package io.zabkit.it;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Key pairs for the TLS tests, made at run time with the JDK's keytool (no private key is committed):
 * a self-signed EC certificate for 127.0.0.1 and localhost in a PKCS12 keystore, and a truststore
 * holding that certificate alone.
 */
final class TestKeys {
    private static final long KEYTOOL_TIMEOUT_S = 60;

    /** A keystore with the private key and its certificate, and a truststore with the certificate. */
    record Pair(Path keyStore, Path trustStore) {}

    private TestKeys() {}

    static Pair selfSigned(Path dir, String name, String password) throws IOException, InterruptedException {
        Path keyStore = dir.resolve(name + "-key.p12");
        Path certificate = dir.resolve(name + ".crt");
        Path trustStore = dir.resolve(name + "-trust.p12");
        keytool("-genkeypair", "-alias", name, "-keyalg", "EC", "-groupname", "secp256r1", "-validity", "2",
                "-dname", "CN=" + name + ",O=zabkit test", "-ext", "SAN=ip:127.0.0.1,dns:localhost",
                "-keystore", keyStore.toString(), "-storetype", "PKCS12", "-storepass", password,
                "-keypass", password);
        keytool("-exportcert", "-alias", name, "-keystore", keyStore.toString(), "-storepass", password,
                "-rfc", "-file", certificate.toString());
        keytool("-importcert", "-noprompt", "-alias", name, "-file", certificate.toString(),
                "-keystore", trustStore.toString(), "-storetype", "PKCS12", "-storepass", password);
        return new Pair(keyStore, trustStore);
    }

    private static void keytool(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        if (!p.waitFor(KEYTOOL_TIMEOUT_S, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IOException("keytool did not finish in " + KEYTOOL_TIMEOUT_S + " s: " + command);
        }
        String output = new String(p.getInputStream().readAllBytes());
        if (p.exitValue() != 0) {
            throw new IOException("keytool " + args[0] + " failed (" + p.exitValue() + "): " + output);
        }
    }
}
