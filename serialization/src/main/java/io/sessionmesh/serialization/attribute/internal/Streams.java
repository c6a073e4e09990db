package io.sessionmesh.serialization.attribute.internal;

import one.nio.serial.DataStream;
import one.nio.serial.SerializeStream;

/** one-nio writers that start at an offset of the array, leaving room for a frame header in front. */
public final class Streams {
    private Streams() {
    }

    /**
     * The writer one-nio would use for a graph that {@code sizer} has walked (with back references when the
     * graph shares objects), writing into {@code array} after {@code headerBytes} bytes.
     */
    public static DataStream writerFor(PreparingSizeStream sizer, byte[] array, int headerBytes) {
        if (sizer.hasCycles()) {
            return new SerializeStream(array, sizer.capacity()) {
                {
                    this.offset += headerBytes; // the inherited field shadows nothing here: the parameter has another name
                }
            };
        }
        return new DataStream(array) {
            {
                this.offset += headerBytes; // the inherited field shadows nothing here: the parameter has another name
            }
        };
    }
}
