package io.zabkit.storage;

import java.io.IOException;

/**
 * Data on disk that recovery must not paper over: damage that cannot be a torn tail of unsynced
 * writes, or a gap between a snapshot and the logs. The server refuses to start rather than serve a
 * history with holes in it.
 */
public final class CorruptStorageException extends IOException {
    private static final long serialVersionUID = 1L;

    public CorruptStorageException(String message) {
        super(message);
    }
}
