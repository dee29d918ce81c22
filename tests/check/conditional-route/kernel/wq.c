#include <linux/workqueue.h>
struct delayed_work wq_work;
