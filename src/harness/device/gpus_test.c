/* CPU tests of the multi-GPU helpers: PCI addresses in NVML's and CUDA's
 * spellings, counting the NVLinks between two GPUs from a GPU's ports
 * (direct, through NVSwitches, inactive links, other GPUs' links), the text
 * that describes a link, and the run's GPU list where there may be no GPU. */
#include <math.h>
#include <string.h>

#include "gpus.h"
#include "harness/testing/test_util.h"

static void test_pci_addresses(void)
{
    ladder_pci_address a, b;
    EXPECT(ladder_parse_pci_address("0000:19:00.0", &a) == 0);
    EXPECT(a.domain == 0 && a.bus == 0x19 && a.device == 0 && a.function == 0);
    /* NVML pads the domain to eight digits; the same GPU. */
    EXPECT(ladder_parse_pci_address("00000000:19:00.0", &b) == 0);
    EXPECT(memcmp(&a, &b, sizeof a) == 0);
    EXPECT(ladder_parse_pci_address("0001:DB:1f.7", &a) == 0);
    EXPECT(a.domain == 1 && a.bus == 0xdb && a.device == 0x1f && a.function == 7);
    const char *bad[] = {"", "19:00.0", "0000:19:00", "0000:19:00.0x", "0000:100:00.0", "0000:19:20.0",
                         "0000:19:00.8", "zz", NULL};
    for (int i = 0; bad[i]; ++i) EXPECTF(ladder_parse_pci_address(bad[i], &a) != 0, "'%s' accepted", bad[i]);
    EXPECT(ladder_parse_pci_address(NULL, &a) != 0);
}

static ladder_nvlink_port port(int active, int type, unsigned bus)
{
    return (ladder_nvlink_port){active, type, {0, bus, 0, 0}};
}

static void test_links_from_ports(void)
{
    ladder_pci_address peer = {0, 0x2a, 0, 0};
    /* Two H200s joined directly: 18 links to the peer. */
    ladder_nvlink_port direct[18];
    for (int i = 0; i < 18; ++i) direct[i] = port(1, LADDER_REMOTE_GPU, 0x2a);
    ladder_link l = ladder_link_from_ports(direct, 18, &peer);
    EXPECT(l.nvml && l.nvlinks == 18 && !l.through_switch);

    /* Links to a third GPU and inactive links do not count; a remote type
     * NVML did not report (-1) is judged by the address. */
    direct[0] = port(1, LADDER_REMOTE_GPU, 0x3b);
    direct[1] = port(0, LADDER_REMOTE_GPU, 0x2a);
    direct[2] = port(1, -1, 0x2a);
    l = ladder_link_from_ports(direct, 18, &peer);
    EXPECT(l.nvlinks == 16 && !l.through_switch);

    /* An HGX board: every link to an NVSwitch, all of them serve any peer. */
    ladder_nvlink_port switched[18];
    for (int i = 0; i < 18; ++i) switched[i] = port(i != 5, LADDER_REMOTE_SWITCH, 0x80 + (unsigned)i % 4);
    l = ladder_link_from_ports(switched, 18, &peer);
    EXPECT(l.nvlinks == 17 && l.through_switch);

    /* No NVLink at all (PCIe): NVML answered, zero links. */
    l = ladder_link_from_ports(NULL, 0, &peer);
    EXPECT(l.nvml && l.nvlinks == 0 && isnan(l.link_gbps));

    /* An IBM NPU's link is not a GPU's even at the peer's address. */
    ladder_nvlink_port npu[1] = {port(1, LADDER_REMOTE_CPU, 0x2a)};
    EXPECT(ladder_link_from_ports(npu, 1, &peer).nvlinks == 0);
}

static void test_descriptions(void)
{
    char text[120];
    ladder_link unknown = {0, 0, 0, NAN};
    ladder_describe_link(&unknown, text, sizeof text);
    EXPECT(strstr(text, "unknown") != NULL);
    ladder_link pcie = {1, 0, 0, NAN};
    ladder_describe_link(&pcie, text, sizeof text);
    EXPECT(strstr(text, "no NVLink") != NULL);
    ladder_link h200 = {1, 18, 0, 26.5625};
    ladder_describe_link(&h200, text, sizeof text);
    EXPECTF(strcmp(text, "18 NVLinks of 26.6 GB/s each way: 478 GB/s") == 0, "got '%s'", text);
    ladder_link silent = {1, 4, 1, NAN};
    ladder_describe_link(&silent, text, sizeof text);
    EXPECTF(strstr(text, "through NVSwitch") && strstr(text, "not told"), "got '%s'", text);
}

/* With or without a GPU: the run's device first, every ordinal once. */
static void test_run_gpus(void)
{
    int gpus[LADDER_MAX_GPUS];
    int n = ladder_run_gpus(gpus, LADDER_MAX_GPUS);
    EXPECT(n >= 0 && n <= LADDER_MAX_GPUS);
    for (int i = 0; i < n; ++i)
        for (int j = i + 1; j < n; ++j) EXPECT(gpus[i] != gpus[j]);
    printf("this machine: %d GPU%s for a multi-GPU case\n", n, n == 1 ? "" : "s");
}

int main(void)
{
    test_pci_addresses();
    test_links_from_ports();
    test_descriptions();
    test_run_gpus();
    return test_result("gpus_test");
}
