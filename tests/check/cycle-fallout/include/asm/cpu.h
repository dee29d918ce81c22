#ifndef _ASM_CPU_H
#define _ASM_CPU_H
#include <linux/device.h>
#include <linux/topology.h>
#include <linux/nodemask.h>

struct device *cpu_device(int cpu);
#endif
