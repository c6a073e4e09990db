package io.sessionmesh.client;

/** What {@link Session#save()} sends. */
public enum SaveMode {
    /** Only attributes set or removed through {@link Section#setAttribute} and {@link Section#removeAttribute}. */
    ON_SET,
    /**
     * Also attributes that were read and changed in place ({@code list.add} on a stored list): at save, every value
     * read is encoded again and sent if its bytes differ from the bytes it was read from. Costs one encoding per
     * attribute read; the default, because a change lost silently is worse.
     */
    ON_SET_OR_READ
}
