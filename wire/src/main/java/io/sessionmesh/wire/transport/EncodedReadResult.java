package io.sessionmesh.wire.transport;

import java.util.ArrayList;
import java.util.List;

/**
 * A READ_RESULT whose sections stay in their wire form ({@link EncodedSection}): what a store answers and a
 * cache keeps, without one object per attribute. {@link BinaryTransportCodec#encodeReadResult} writes it,
 * {@link BinaryTransportCodec#decodeEncodedReadResult} reads it with every check of the model's decoder.
 *
 * @param sessionId a session id, checked by whoever built this
 * @param sections distinct names, unmodifiable
 */
public record EncodedReadResult(String sessionId, List<EncodedSection> sections) {
    /** The same result as the model (values copied). */
    public ReadResult toReadResult() {
        List<SectionData> data = new ArrayList<>(sections.size());
        for (EncodedSection s : sections) {
            data.add(s.toData());
        }
        return ReadResult.trusted(sessionId, java.util.Collections.unmodifiableList(data));
    }

    /** The model's result in wire form. */
    public static EncodedReadResult of(ReadResult result) {
        List<EncodedSection> sections = new ArrayList<>(result.sections().size());
        for (SectionData s : result.sections()) {
            sections.add(EncodedSection.of(s));
        }
        return new EncodedReadResult(result.sessionId(), List.copyOf(sections));
    }
}
