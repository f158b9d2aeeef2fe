"""What every training run shares, whatever its algorithm.

==============  =================================================================
module          what it holds
==============  =================================================================
``settings``    the settings of ``configs/train.yaml``, their checks, resuming rules
``lock``        one run per run directory: the lock and the refusal that names its holder
``ranks``       data-parallel training under ``torchrun``: what the ranks agree on
``logging``     TensorBoard scalars, and what a run logs first
``evaluating``  the arena during training: evaluations, their file and their log
``checkpoints`` reading a run's ``torch.save`` files, and ``bot.pt`` kept up with ``last.pt``
``curve``       the learning curve drawn from ``evaluations.jsonl``
==============  =================================================================

An algorithm (``agents/td``, ``agents/ppo``) builds its run from these; it never copies them.
"""
