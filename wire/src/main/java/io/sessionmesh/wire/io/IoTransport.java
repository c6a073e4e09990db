package io.sessionmesh.wire.io;

import io.netty.channel.Channel;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoEventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerDomainSocketChannel;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerDomainSocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.channel.unix.DomainSocketAddress;
import io.netty.util.concurrent.DefaultThreadFactory;

import java.net.SocketAddress;
import java.net.UnixDomainSocketAddress;
import java.nio.file.Path;
import java.util.List;

/**
 * Which of Netty's socket transports the sidecar and the master run on: Linux's epoll through Netty's native library,
 * or the JDK's selector (NIO), which runs everywhere. Epoll costs less CPU a request: no selected-key set to walk and
 * no garbage for it, edge-triggered wake-ups and fewer system calls (RESULTS.md 12.11 at 1f3fa7a measures it on the HTTP flows).
 * The choice is the {@code io-transport} setting: {@code auto} (the default) takes epoll where its native library
 * loads and says why not where it does not; {@code epoll} insists on it; {@code nio} never tries it.
 *
 * <p>One process uses one transport for all its loops, and a channel must match its loop's transport: a bootstrap
 * given a loop group asks {@link #of(EventLoopGroup)} for the channel class instead of naming one.
 */
public enum IoTransport {
    EPOLL, NIO;

    /** The values the {@code io-transport} setting takes. */
    public static final List<String> SETTING_VALUES = List.of("auto", "epoll", "nio");
    /**
     * What the {@code io-transport} setting means, for the master's and the sidecar's declarations of it (this module
     * reads no settings).
     */
    public static final String SETTING_MEANING = "The sockets' event loops: `epoll` (Linux's, through Netty's native "
            + "library: less CPU a request), `nio` (the JDK's selector, anywhere), or `auto`: epoll where its library "
            + "loads (Linux x86_64), else nio. The configuration printed at start names the choice and, on a fallback, why.";

    /**
     * The transport a setting asks for.
     *
     * @param setting {@code auto}, {@code epoll} or {@code nio}
     * @throws IllegalArgumentException {@code epoll} on a machine where Netty's native epoll library does not load
     *                                  (the message names the cause), or a value that is none of the three
     */
    public static IoTransport choose(String setting) {
        switch (setting) {
            case "nio":
                return NIO;
            case "epoll":
                if (!epollAvailable()) {
                    throw new IllegalArgumentException("io-transport = epoll, but Netty's native epoll transport does not "
                            + "load here: " + epollUnavailabilityCause() + "; use io-transport = auto or nio");
                }
                return EPOLL;
            case "auto":
                return epollAvailable() ? EPOLL : NIO;
            default:
                throw new IllegalArgumentException("io-transport must be one of " + SETTING_VALUES + ", not " + setting);
        }
    }

    /** How a process shows its choice at start: {@code "epoll"}, {@code "epoll (auto)"} or why auto fell back. */
    public static String describe(String setting, IoTransport chosen) {
        if (!setting.equals("auto")) {
            return chosen.word();
        }
        return chosen == EPOLL ? "epoll (auto)" : "nio (auto: native epoll does not load: " + epollUnavailabilityCause() + ")";
    }

    /** Whether Netty's native epoll transport loads on this machine (Linux, and a native library for its CPU). */
    public static boolean epollAvailable() {
        try {
            return Epoll.isAvailable();
        } catch (LinkageError e) {
            return false; // the epoll classes are not on the class path
        }
    }

    /** Why epoll is not available, for a log line; null when it is. */
    public static String epollUnavailabilityCause() {
        try {
            Throwable cause = Epoll.unavailabilityCause();
            return cause == null ? null : String.valueOf(cause.getMessage() == null ? cause : cause.getMessage());
        } catch (LinkageError e) {
            return "netty-transport-native-epoll is not on the class path (" + e + ")";
        }
    }

    /**
     * The transport of a loop group this enum made ({@link #eventLoops}); NIO for any other group.
     */
    public static IoTransport of(EventLoopGroup group) {
        return group instanceof IoEventLoopGroup io && epollAvailable() && io.isIoType(EpollIoHandler.class) ? EPOLL : NIO;
    }

    /** The channel class a client bootstrap on {@code group} must use. */
    public static Class<? extends Channel> socketChannelFor(EventLoopGroup group) {
        return of(group) == EPOLL ? EpollSocketChannel.class : NioSocketChannel.class;
    }

    /** A loop group of {@code threads} daemon threads named {@code name-N}. */
    public EventLoopGroup eventLoops(int threads, String name) {
        return new MultiThreadIoEventLoopGroup(threads, new DefaultThreadFactory(name, true), ioHandlerFactory());
    }

    private IoHandlerFactory ioHandlerFactory() {
        return this == EPOLL ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
    }

    /** The TCP server channel class. */
    public Class<? extends ServerChannel> serverChannel() {
        return this == EPOLL ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
    }

    /** The Unix domain socket server channel class. */
    public Class<? extends ServerChannel> serverDomainSocketChannel() {
        return this == EPOLL ? EpollServerDomainSocketChannel.class : NioServerDomainSocketChannel.class;
    }

    /** The address a {@link #serverDomainSocketChannel()} binds for the socket file at {@code path}. */
    public SocketAddress domainSocketAddress(Path path) {
        return this == EPOLL ? new DomainSocketAddress(path.toFile()) : UnixDomainSocketAddress.of(path);
    }

    /** The setting's word for this transport, as logs and stats show it. */
    public String word() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
