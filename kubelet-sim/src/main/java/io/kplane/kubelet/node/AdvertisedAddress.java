package io.kplane.kubelet.node;

import io.kplane.api.core.NodeAddress;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The address a kubelet advertises on its Node ({@code status.addresses}), from {@code --node-address}:
 * what the API server dials to reach this kubelet (pod logs; exec, attach and port-forward later) and
 * what pods see as {@code status.hostIP}.
 *
 * <p>Like the kubelet's {@code --node-ip} and {@code --hostname-override}: an IP literal becomes the
 * {@code InternalIP} (the {@code Hostname} address stays the node name); a host name becomes the
 * {@code Hostname} address and is resolved once, at start, to the {@code InternalIP} (the kubelet also
 * resolves its host name when no node IP is given). In docker-compose the service name is passed, so
 * the Node carries both the service name and the container's current IP.
 *
 * @param internalIp the {@code InternalIP} address (also the pods' {@code hostIP})
 * @param hostname   the {@code Hostname} address
 */
public record AdvertisedAddress(String internalIp, String hostname) {
    /** {@code ./kplane up}: every component on loopback. */
    public static final String DEFAULT = "127.0.0.1";

    private static final Pattern IPV4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");

    /**
     * @param address  {@code --node-address}: an IPv4/IPv6 literal or a resolvable host name
     * @param nodeName the Node's name (the {@code Hostname} address when {@code address} is an IP)
     * @throws IllegalArgumentException when a host name does not resolve (the kubelet would advertise an
     *                                  address nothing can reach)
     */
    public static AdvertisedAddress of(String address, String nodeName) {
        String a = address == null || address.isBlank() ? DEFAULT : address.strip();
        if (isIpLiteral(a)) {
            return new AdvertisedAddress(a, nodeName);
        }
        try {
            return new AdvertisedAddress(InetAddress.getByName(a).getHostAddress(), a.toLowerCase(Locale.ROOT));
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException(
                    "--node-address " + a + ": cannot resolve the host name "
                            + "(give an IP address or a name this machine resolves)",
                    e);
        }
    }

    static boolean isIpLiteral(String a) {
        return IPV4.matcher(a).matches() || (a.contains(":") && a.matches("[0-9a-fA-F:.]+"));
    }

    /** For {@code status.addresses}: InternalIP first, as the kubelet lists them. */
    public List<NodeAddress> nodeAddresses() {
        return List.of(new NodeAddress("InternalIP", internalIp), new NodeAddress("Hostname", hostname));
    }
}
