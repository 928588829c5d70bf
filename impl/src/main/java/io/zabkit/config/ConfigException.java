package io.zabkit.config;

/** A config the server cannot start with; the message names the file, line, key and value. */
public final class ConfigException extends Exception {
    private static final long serialVersionUID = 1L;

    public ConfigException(String message) {
        super(message);
    }

    static ConfigException at(CfgFile.Entry entry, String why) {
        return new ConfigException(entry.where() + ": " + entry.key() + "=" + entry.value() + ": " + why);
    }
}
