package io.sessionmesh.client;

/** What {@link Session#save()} sends. */
public enum SaveMode {
    /** Only attributes set or removed through {@link Section#setAttribute} and {@link Section#removeAttribute}. */
    ON_SET,
    /**
     * Also attributes that were read and changed in place ({@code list.add} on a stored list): at save, every value
     * read is encoded again and sent if it differs from what was read (below: what "differs" means when another
     * version of its class wrote it). Costs one encoding per attribute read; the default, because a change lost
     * silently is worse.
     *
     * <p>A value is sent only when this JVM changed it. When its bytes were written with another schema than this
     * JVM's (another version of a class in it, or a class under a former name), this JVM's encoding differs from
     * them even if nothing changed, and sending it would erase the fields this version lacks, or write it under the
     * class's new name where services that know only a former name still read it. Such a value is serialized once more when it is decoded, and at save compared with that instead:
     * one more serialization per value read in another schema, none in the common case. A value of another schema
     * that this JVM does change in place is sent in this JVM's shape (last writer wins, as for a set).
     */
    ON_SET_OR_READ
}
